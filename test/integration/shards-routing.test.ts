import { beforeAll, describe, expect, it } from "vitest";
import { admin, PUBLIC, send } from "../helpers/http";
import { WEEKDAYS_9_TO_18 } from "../helpers/factory";
import { ics, serve } from "../helpers/ics-server";
import { createResource } from "../helpers/resources";
import { at, customer, MONDAY } from "../helpers/salon";
import { seedSeries, weeklyLocal } from "../helpers/series";
import { createPromocode, createShop, sellVouchers, type Shop } from "../helpers/shop";
import { join } from "../helpers/waitlist";
import {
  d1,
  D1_NAMES,
  DIRECTORY_TABLES,
  holdings,
  type Holdings,
  rowsOf,
  SHARD_NAMES,
} from "../helpers/shard-holdings";

/**
 * Routing: two workspaces on two different shards, each driven through every
 * family of the public and the management API. Afterwards each database is
 * read straight from its binding: a workspace's rows are on its shard and on
 * no other database (the directory holds its `workspaces` row and its API keys
 * only). Runs first in this file, while the file's only workspaces are these.
 */

interface Tenant {
  shop: Shop;
  shard: string;
  /** Ids of its rows, for the cross-tenant calls below. */
  ids: {
    booking: string;
    canceled: string;
    customer: string;
    series: string;
    hold: string;
    order: string;
    voucher: string;
    waitlist: string;
    message: string;
    externalCalendar: string;
    staffer: string;
    location: string;
    service: string;
    resource: string;
    apiKey: string;
  };
  /** Every answer of the workload, named for the call that got it. */
  answers: [string, Received][];
}

/** An answer as the helpers give it (its body asserted field by field). */
type Received = Awaited<ReturnType<typeof admin>>;

let a: Tenant;
let b: Tenant;
let before: Map<string, Holdings>;

/** Calls `send`, expects `status`, and keeps the answer for the bookmark checks. */
function recorder(answers: [string, Received][]) {
  return async (name: string, status: number, send: () => Promise<Received>) => {
    const res = await send();
    expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(status);
    answers.push([name, res]);
    return res;
  };
}

/** One workspace's calls: every family of both APIs, reads and writes. */
async function workload(shop: Shop, shard: string, icsPath: string): Promise<Tenant> {
  const answers: [string, Received][] = [];
  const call = recorder(answers);
  const { ws, location, staffers, cut } = shop;
  const wsPath = `/workspaces/${ws.id}`;
  const [s0, s1] = staffers.map((s) => s.uuid) as [string, string];

  // Management API.
  await call("admin GET workspace", 200, () => admin(wsPath));
  // The workspace's row has two copies, the directory's and its shard's: both change.
  const name = `Salon on ${shard}`;
  await call("admin PATCH workspace", 200, () =>
    admin(wsPath, { method: "PATCH", body: { name } }),
  );
  expect((await admin(wsPath)).body.name).toBe(name);
  expect((await ws.api("/workspace")).body.name).toBe(name);
  await call("admin PUT staffer schedule", 200, () =>
    admin(`${wsPath}/staffers/${s1}/schedule`, {
      method: "PUT",
      body: { intervals: WEEKDAYS_9_TO_18(location.uuid) },
    }),
  );
  await call("admin PATCH location", 200, () =>
    admin(`${wsPath}/locations/${location.uuid}`, { method: "PATCH", body: { name: "Renamed" } }),
  );
  await call("admin POST customer", 201, () =>
    admin(`${wsPath}/customers`, {
      method: "POST",
      body: { first_name: "Ida", phone: "030 7654321" },
    }),
  );
  const key = await call("admin POST api key", 201, () =>
    admin(`${wsPath}/api-keys`, { method: "POST" }),
  );
  await call("admin PUT notification settings", 200, () =>
    admin(`${wsPath}/notification-settings`, {
      method: "PUT",
      body: {
        email: { enabled: true, from_name: "Salon", from_email: "hello@salon.example" },
        sms: { enabled: true },
        reminders: [{ channel: "email", minutes_before: 1440 }],
        templates: {},
      },
    }),
  );
  await call("admin GET notification settings", 200, () =>
    admin(`${wsPath}/notification-settings`),
  );
  await call("admin POST booking status", 201, () =>
    admin(`${wsPath}/booking-statuses`, {
      method: "POST",
      body: { name: "Arrived", type: "inprogress" },
    }),
  );
  const resource = await createResource(ws, location.uuid, { name: "Basin" });
  await call("admin POST resource blocked spot", 201, () =>
    admin(`${wsPath}/resources/${resource.uuid}/blocked-spots`, {
      method: "POST",
      body: { starts_at: at("07:00"), ends_at: at("08:00") },
    }),
  );
  await call("admin GET resources", 200, () => admin(`${wsPath}/resources`));
  await call("admin GET resource calendar", 200, () =>
    admin(`${wsPath}/resources/${resource.uuid}/calendar`),
  );
  await call("admin PUT booking form", 200, () =>
    admin(`${wsPath}/booking-form`, { method: "PUT", body: { customer_email: "required" } }),
  );
  await call("admin POST category", 201, () =>
    admin(`${wsPath}/categories`, { method: "POST", body: { name: "Hair", kind: "service" } }),
  );
  await createPromocode(ws, { code: "TENOFF", discount_percent: 10 });
  await call("admin GET staffer calendar", 200, () => admin(`${wsPath}/staffers/${s0}/calendar`));

  // Public API: the catalogue.
  for (const path of [
    "/workspace",
    "/locations",
    "/services",
    "/staffers",
    "/goods",
    "/resources",
    "/accounts",
    "/booking-statuses",
    "/booking-form",
  ]) {
    await call(`GET ${path}`, 200, () => ws.api(path));
  }
  await call("PATCH service", 200, () =>
    ws.api(`/services/${cut.uuid}`, { method: "PATCH", body: { capacity: 1 } }),
  );
  const slots = new URLSearchParams({
    service_uuid: cut.uuid,
    range_start: MONDAY,
    range_end: MONDAY,
  });
  await call("GET time slots", 200, () =>
    ws.api(`/locations/${location.uuid}/time-slots?${slots}`),
  );

  // Holds, bookings, carts, series.
  const item = (hhmm: string, staffer: string) => ({
    datetime_start: at(hhmm),
    services: [{ service_uuid: cut.uuid, staffer_uuid: staffer }],
  });
  const hold = await call("POST reservation", 201, () =>
    ws.api("/reservations", {
      method: "POST",
      body: { location_uuid: location.uuid, items: [item("16:00", s1)] },
    }),
  );
  const dropped = await call("POST reservation (to delete)", 201, () =>
    ws.api("/reservations", {
      method: "POST",
      body: { location_uuid: location.uuid, items: [item("16:00", s0)] },
    }),
  );
  await call("DELETE reservation", 204, () =>
    ws.api(`/reservations/${dropped.body.uuid}`, { method: "DELETE" }),
  );
  await call("GET reservation", 200, () => ws.api(`/reservations/${hold.body.uuid}`));
  const booking = await call("POST booking", 201, () =>
    ws.api("/bookings", {
      method: "POST",
      body: {
        location_uuid: location.uuid,
        service_uuid: cut.uuid,
        staffer_uuid: s0,
        reserved_on: at("10:00"),
        ...customer("+49 151 10000001"),
      },
    }),
  );
  await call("PUT reschedule", 200, () =>
    ws.api(`/bookings/${booking.body.uuid}/reschedule`, {
      method: "PUT",
      body: { reserved_on: at("11:00") },
    }),
  );
  await call("GET booking", 200, () => ws.api(`/bookings/${booking.body.uuid}`));
  const cart = await call("POST cart", 201, () =>
    ws.api("/bookings/cart", {
      method: "POST",
      body: {
        location_uuid: location.uuid,
        items: [item("13:00", s1)],
        ...customer("+49 151 10000002"),
      },
    }),
  );
  const canceled: string = cart.body.bookings?.[0]?.uuid ?? cart.body[0]?.uuid;
  expect(canceled, JSON.stringify(cart.body)).toEqual(expect.any(String));
  await call("PUT cancel", 200, () =>
    ws.api(`/bookings/${canceled}/status/cancel`, { method: "PUT", body: {} }),
  );
  const series = await seedSeries(shop, { starts: weeklyLocal("2030-03-11", "15:00", 3) });
  await call("GET series", 200, () => ws.api(`/series/${series.id}`));
  await call("GET bookings", 200, () => ws.api("/bookings"));

  // Point of sale, vouchers.
  const sold = await sellVouchers(shop, 1);
  await call("GET voucher", 200, () => ws.api(`/vouchers/${sold.codes[0]}`));
  await call("GET order", 200, () => ws.api(`/orders/${sold.order.uuid}`));
  await call("GET orders", 200, () => ws.api("/orders"));

  // Customers, waitlist, webhooks, messages.
  await call("GET customers", 200, () => ws.api("/customers"));
  await call("PATCH customer", 200, () =>
    ws.api(`/customers/${booking.body.customer_uuid}`, {
      method: "PATCH",
      body: { notifications: { email: false } },
    }),
  );
  const entry = await call("POST waitlist", 201, () => join(shop, ws.api));
  await call("GET waitlist", 200, () => ws.api("/waitlist"));
  const webhook = await call("POST webhook", 201, () =>
    ws.api("/webhooks", {
      method: "POST",
      headers: { "idempotency-key": crypto.randomUUID() },
      body: { url: "https://hooks.example.com/salon", events: ["booking-created"] },
    }),
  );
  await call("GET webhook", 200, () => ws.api(`/webhooks/${webhook.body.id}`));
  const messages = await call("GET messages", 200, () => ws.api("/messages"));
  const message: string | undefined = messages.body.data?.[0]?.uuid;
  expect(message, JSON.stringify(messages.body)).toEqual(expect.any(String));

  // Staff calendars: an external calendar, a feed, a blocked spot.
  const url = await serve(icsPath, {
    body: ics([{ uid: "dentist", start: Date.parse(at("17:00")), end: Date.parse(at("18:00")) }]),
  });
  const external = await call("POST external calendar", 201, () =>
    ws.api(`/staffers/${s0}/external-calendars`, { method: "POST", body: { url } }),
  );
  await call("POST calendar feed", 201, () =>
    ws.api(`/staffers/${s0}/calendar-feed`, { method: "POST" }),
  );
  await call("POST blocked spot", 201, () =>
    ws.api(`/staffers/${s1}/blocked-spots`, {
      method: "POST",
      body: { location_uuid: location.uuid, starts_at: at("08:00"), ends_at: at("08:30") },
    }),
  );

  await call("admin POST staffer calendar rebuild", 200, () =>
    admin(`${wsPath}/staffers/${s0}/calendar/rebuild`, { method: "POST" }),
  );
  await call("admin POST resource calendar rebuild", 200, () =>
    admin(`${wsPath}/resources/${resource.uuid}/calendar/rebuild`, { method: "POST" }),
  );

  return {
    shop,
    shard,
    answers,
    ids: {
      booking: booking.body.uuid,
      canceled,
      customer: booking.body.customer_uuid,
      series: series.id,
      hold: hold.body.uuid,
      order: sold.order.uuid,
      voucher: sold.codes[0] as string,
      waitlist: entry.body.uuid,
      message: message as string,
      externalCalendar: external.body.uuid,
      staffer: s0,
      location: location.uuid,
      service: cut.uuid,
      resource: resource.uuid,
      apiKey: key.body.id,
    },
  };
}

const snapshot = async () =>
  new Map(await Promise.all(D1_NAMES.map(async (n) => [n, await holdings(n)] as const)));
const counts = (m: Map<string, Holdings>) =>
  JSON.stringify([...m].map(([n, h]) => [n, [...h.byWorkspace].map(([w, t]) => [w, [...t]])]));

/**
 * Every database's holdings once two reads 1.5 s apart agree: background work done (the
 * queues' consumers take batches of up to 1 s).
 */
async function settled(): Promise<Map<string, Holdings>> {
  let last = await snapshot();
  for (let i = 0; i < 8; i++) {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const next = await snapshot();
    if (counts(next) === counts(last)) return next;
    last = next;
  }
  throw new Error("the databases kept changing for 12 s after the workload");
}

/** A shop per workspace; workspaces are created until two live on different shards. */
async function twoShops(): Promise<[Shop, Shop]> {
  const first = await createShop();
  for (let i = 0; i < SHARD_NAMES.length; i++) {
    const other = await createShop();
    if (other.ws.shard !== first.ws.shard) return [first, other];
  }
  throw new Error("every new workspace landed on one shard");
}

beforeAll(async () => {
  const [shopA, shopB] = await twoShops();
  expect(SHARD_NAMES).toContain(shopA.ws.shard);
  expect(SHARD_NAMES).toContain(shopB.ws.shard);
  a = await workload(shopA, shopA.ws.shard, "/shards-routing-a.ics");
  b = await workload(shopB, shopB.ws.shard, "/shards-routing-b.ics");
  // After the answers' background work (messages, webhook deliveries, calendar confirms).
  before = await settled();
}, 120_000);

describe("every family of both APIs reads and writes its workspace's shard only", () => {
  it("the two workspaces live on two different shards, as the directory says", async () => {
    expect(a.shard).not.toBe(b.shard);
    const directory = before.get("DB");
    expect(directory?.placements.get(a.shop.ws.id)).toBe("directory");
    expect(directory?.placements.get(b.shop.ws.id)).toBe("directory");
    const row = await d1("DB")
      .prepare("SELECT shard FROM workspaces WHERE id = ?")
      .bind(a.shop.ws.id)
      .first<{ shard: string }>();
    expect(row?.shard).toBe(a.shard);
  });

  it.each([["a"], ["b"]])("workspace %s: its rows are on its shard, in every family", (which) => {
    const t = which === "a" ? a : b;
    const home = before.get(t.shard) as Holdings;
    expect(home.placements.get(t.shop.ws.id)).toBe("open");
    const rows = rowsOf(home, t.shop.ws.id);
    const families = [
      "locations",
      "staffers",
      "staffer_schedules",
      "services",
      "goods",
      "accounts",
      "voucher_templates",
      "customers",
      "notification_settings",
      "booking_statuses",
      "resources",
      "resource_blocks",
      "booking_forms",
      "categories",
      "promocodes",
      "reservations",
      "bookings",
      "series",
      "orders",
      "vouchers",
      "waitlist_entries",
      "webhooks",
      "messages",
      "external_calendars",
      "calendar_feeds",
      "blocked_spots",
      "events",
      "idempotency_keys",
    ];
    // Each is a table of the shard keyed by workspace (a renamed table must not pass silently).
    expect(families.filter((table) => !home.owned.has(table))).toEqual([]);
    const missing = families.filter((table) => !(rows[table] && rows[table] > 0));
    expect(missing, JSON.stringify(rows)).toEqual([]);
  });

  it.each([["a"], ["b"]])("workspace %s: no other database holds a row of it", (which) => {
    const t = which === "a" ? a : b;
    const elsewhere: string[] = [];
    for (const [name, h] of before) {
      if (name === t.shard) continue;
      const rows = rowsOf(h, t.shop.ws.id);
      for (const [table, n] of Object.entries(rows)) {
        // The directory holds its keys, nothing else of it.
        if (name === "DB" && DIRECTORY_TABLES.has(table)) continue;
        elsewhere.push(`${name}.${table}: ${n}`);
      }
      if (name !== "DB" && h.placements.has(t.shop.ws.id)) elsewhere.push(`${name}.workspaces`);
    }
    expect(elsewhere).toEqual([]);
    // Its API keys (the one made with the workspace, the one made above) are the directory's.
    expect(rowsOf(before.get("DB") as Holdings, t.shop.ws.id).api_keys).toBe(2);
    for (const shard of SHARD_NAMES) {
      expect(rowsOf(before.get(shard) as Holdings, t.shop.ws.id).api_keys ?? 0).toBe(0);
    }
  });

  it("the directory's tenant tables and the shards holding neither workspace are empty", () => {
    const notEmpty: string[] = [];
    for (const [name, h] of before) {
      const holdsOne = name === a.shard || name === b.shard;
      for (const [ws, tables] of h.byWorkspace) {
        for (const [table, n] of tables) {
          if (name === "DB" && DIRECTORY_TABLES.has(table)) continue;
          if (holdsOne && (ws === a.shop.ws.id || ws === b.shop.ws.id)) continue;
          // A row of no workspace (a hold's fence) may sit on the shard of the hold.
          if (holdsOne && ws === "(none)") continue;
          notEmpty.push(`${name}.${table} (${ws}): ${n}`);
        }
      }
      if (!holdsOne) {
        for (const [table, n] of h.unowned) if (n > 0) notEmpty.push(`${name}.${table}: ${n}`);
      }
    }
    expect(notEmpty).toEqual([]);
  });
});

/**
 * A workspace's rows but its webhooks' deliveries, which the outbox fans out to its webhooks
 * in the background, whenever that runs.
 */
const ownRows = (h: Holdings, t: Tenant) => {
  const rows = rowsOf(h, t.shop.ws.id);
  delete rows.webhook_deliveries;
  delete rows.webhook_attempts;
  return rows;
};

/** Calls of the workload that read or write the directory only (the workspace's row, its keys). */
const DIRECTORY_ONLY = new Set(["admin GET workspace", "admin POST api key"]);

describe("every answer that touched the workspace's shard carries its D1 bookmark", () => {
  it.each([["a"], ["b"]])("workspace %s", (which) => {
    const t = which === "a" ? a : b;
    const wrong = t.answers
      .filter(([name, res]) => {
        const bookmark = res.headers.get("d1-bookmark");
        return DIRECTORY_ONLY.has(name) ? bookmark !== null : !bookmark?.startsWith(`${t.shard}.`);
      })
      .map(([name, res]) => `${name}: ${res.headers.get("d1-bookmark")}`);
    expect(wrong).toEqual([]);
    expect(t.answers.length).toBeGreaterThan(40);
  });
});

describe("tenancy across shards", () => {
  it("a key of workspace A with the Workspace header of B is a 401, and writes nothing", async () => {
    const asB = (path: string, sent: { method?: string; body?: unknown } = {}) =>
      send(`${PUBLIC}${path}`, {
        ...sent,
        headers: { authorization: `Bearer ${a.shop.ws.apiKey}`, workspace: b.shop.ws.id },
      });
    for (const res of [
      await asB("/locations"),
      await asB(`/bookings/${b.ids.booking}`),
      await asB("/webhooks", {
        method: "POST",
        body: { url: "https://hooks.example.com/stranger", events: ["booking-created"] },
      }),
      await asB(`/bookings/${b.ids.booking}/status/cancel`, { method: "PUT", body: {} }),
    ]) {
      expect(res.status, JSON.stringify(res.body)).toBe(401);
      expect(res.body.code).toBe("unauthenticated");
      expect(res.headers.get("d1-bookmark")).toBeNull();
    }
    expect(ownRows(await holdings(b.shard), b)).toEqual(
      ownRows(before.get(b.shard) as Holdings, b),
    );
  });

  /** Calls of A's credentials naming B's rows: each is a 404, as for a row that does not exist. */
  const strangers = (): [string, () => Promise<Received>][] => {
    const api = a.shop.ws.api;
    const ids = b.ids;
    const ws = `/workspaces/${a.shop.ws.id}`;
    return [
      ["GET booking", () => api(`/bookings/${ids.booking}`)],
      [
        "PUT cancel",
        () => api(`/bookings/${ids.booking}/status/cancel`, { method: "PUT", body: {} }),
      ],
      [
        "PUT reschedule",
        () =>
          api(`/bookings/${ids.booking}/reschedule`, {
            method: "PUT",
            body: { reserved_on: at("14:00") },
          }),
      ],
      ["GET customer", () => api(`/customers/${ids.customer}`)],
      [
        "PATCH customer",
        () =>
          api(`/customers/${ids.customer}`, {
            method: "PATCH",
            body: { notifications: { email: false } },
          }),
      ],
      ["GET series", () => api(`/series/${ids.series}`)],
      ["GET reservation", () => api(`/reservations/${ids.hold}`)],
      ["DELETE reservation", () => api(`/reservations/${ids.hold}`, { method: "DELETE" })],
      ["GET order", () => api(`/orders/${ids.order}`)],
      ["GET voucher", () => api(`/vouchers/${ids.voucher}`)],
      ["GET waitlist entry", () => api(`/waitlist/${ids.waitlist}`)],
      ["DELETE waitlist entry", () => api(`/waitlist/${ids.waitlist}`, { method: "DELETE" })],
      ["GET message", () => api(`/messages/${ids.message}`)],
      [
        "PATCH service",
        () => api(`/services/${ids.service}`, { method: "PATCH", body: { capacity: 1 } }),
      ],
      [
        "POST calendar feed",
        () => api(`/staffers/${ids.staffer}/calendar-feed`, { method: "POST" }),
      ],
      [
        "DELETE external calendar",
        () =>
          api(`/staffers/${ids.staffer}/external-calendars/${ids.externalCalendar}`, {
            method: "DELETE",
          }),
      ],
      [
        "admin PATCH location",
        () =>
          admin(`${ws}/locations/${ids.location}`, { method: "PATCH", body: { name: "Taken" } }),
      ],
      ["admin GET staffer calendar", () => admin(`${ws}/staffers/${ids.staffer}/calendar`)],
      ["admin DELETE api key", () => admin(`${ws}/api-keys/${ids.apiKey}`, { method: "DELETE" })],
      ["admin GET resource calendar", () => admin(`${ws}/resources/${ids.resource}/calendar`)],
      [
        "admin POST resource blocked spot",
        () =>
          admin(`${ws}/resources/${ids.resource}/blocked-spots`, {
            method: "POST",
            body: { starts_at: at("06:00"), ends_at: at("07:00") },
          }),
      ],
    ];
  };

  it("ids of B's rows with A's credentials are 404s, public and management API alike; B is untouched", async () => {
    const wrong: string[] = [];
    for (const [name, call] of strangers()) {
      const res = await call();
      if (res.status !== 404) wrong.push(`${name} → ${res.status} ${JSON.stringify(res.body)}`);
    }
    expect(wrong).toEqual([]);
    expect(ownRows(await holdings(b.shard), b)).toEqual(
      ownRows(before.get(b.shard) as Holdings, b),
    );
    const keys = await d1("DB")
      .prepare("SELECT count(*) AS n FROM api_keys WHERE workspace_id = ? AND revoked_at IS NULL")
      .bind(b.shop.ws.id)
      .first<{ n: number }>();
    expect(keys?.n).toBe(2);
    expect((await b.shop.ws.api(`/bookings/${b.ids.booking}`)).body.status).not.toBe("canceled");
  });
});

describe("a workspace from before shards (its data in the directory itself)", () => {
  it("is routed to the directory: its rows land there, on no shard, and read back", async () => {
    const id = crypto.randomUUID();
    // As migration 0033 left every older workspace: shard DB, open in DB.
    await d1("DB")
      .prepare(
        "INSERT INTO workspaces (id, name, country, currency, locale, timezone, created_at) VALUES (?, 'Old', 'DE', 'EUR', 'en', 'Europe/Berlin', ?)",
      )
      .bind(id, Date.now())
      .run();
    const key = await admin(`/workspaces/${id}/api-keys`, { method: "POST" });
    expect(key.status, JSON.stringify(key.body)).toBe(201);
    const location = await admin(`/workspaces/${id}/locations`, {
      method: "POST",
      body: { name: "Old town", timezone: "Europe/Berlin" },
    });
    expect(location.status, JSON.stringify(location.body)).toBe(201);
    expect(location.headers.get("d1-bookmark")?.startsWith("DB.")).toBe(true);
    const headers = { authorization: `Bearer ${key.body.api_key}`, workspace: id };
    const webhook = await send(`${PUBLIC}/webhooks`, {
      method: "POST",
      headers,
      body: { url: "https://hooks.example.com/old", events: ["booking-created"] },
    });
    expect(webhook.status, JSON.stringify(webhook.body)).toBe(201);
    const listed = await send(`${PUBLIC}/locations`, { headers });
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((l: { uuid: string }) => l.uuid)).toEqual([location.body.uuid]);

    const directory = rowsOf(await holdings("DB"), id);
    expect(directory).toMatchObject({ locations: 1, webhooks: 1, api_keys: 1 });
    for (const shard of SHARD_NAMES) expect(rowsOf(await holdings(shard), id), shard).toEqual({});
  });
});
