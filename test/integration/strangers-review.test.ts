import {
  createExecutionContext,
  createScheduledController,
  waitOnExecutionContext,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app/app";
import worker from "../../src/index";
import { fakeLimiter } from "../helpers/limiter";
import { PUBLIC } from "../helpers/http";
import { createPublishableKey, type PublishableKey } from "../helpers/keys";
import { createSalon, customer, type Salon } from "../helpers/salon";
import { everyShard } from "../helpers/every-shard";

/**
 * What a stranger holding the widget's publishable key (it is in every
 * salon's page) can still do, found by a review after the holds, public
 * writes and money work: each test here failed on the code before its fix.
 */

let salon: Salon;
let pk: PublishableKey;
let staff: string[];

beforeAll(async () => {
  salon = await createSalon(3);
  pk = await createPublishableKey(salon.ws);
  staff = salon.staffers.map((s) => s.uuid);
});

/** Monday 2030-04-01 onwards: days of this file only. */
const at = (day: number, hh: number) => {
  const date = new Date(Date.parse("2030-04-01T00:00:00Z") + day * 86_400_000);
  return `${date.toISOString().slice(0, 10)}T${String(hh).padStart(2, "0")}:00:00Z`;
};

const holdFrom = (ip: string, start: string, stafferId: string) =>
  pk.api("/reservations", {
    method: "POST",
    headers: { "cf-connecting-ip": ip },
    body: {
      location_uuid: salon.location.uuid,
      items: [
        {
          datetime_start: start,
          services: [{ service_uuid: salon.cut.uuid, staffer_uuid: stafferId }],
        },
      ],
    },
  });

describe("a visitor on IPv6 is its /64, not each of its addresses", () => {
  it("caps holds over the addresses of one /64 (a home or phone network has 2^64 of them)", async () => {
    const statuses = [];
    for (let i = 1; i <= 4; i++) {
      statuses.push((await holdFrom(`2001:db8:aa:1::${i}`, at(0, 8 + i), staff[0] ?? "")).status);
    }
    expect(statuses).toEqual([201, 201, 201, 429]);
    // Written another way (upper case, leading zeros, no `::`), still the same /64.
    const other = await holdFrom("2001:0DB8:00AA:0001:ffff:0:0:9", at(0, 14), staff[1] ?? "");
    expect(other.status).toBe(429);
    // Another /64 is another visitor.
    expect((await holdFrom("2001:db8:aa:2::1", at(0, 14), staff[1] ?? "")).status).toBe(201);
  });

  it("an IPv4 address sent as IPv4-mapped IPv6 is that IPv4 visitor", async () => {
    for (let i = 0; i < 3; i++) {
      expect((await holdFrom("192.0.2.77", at(1, 9 + i), staff[0] ?? "")).status).toBe(201);
    }
    expect((await holdFrom("::ffff:192.0.2.77", at(1, 13), staff[0] ?? "")).status).toBe(429);
  });

  it("rate limits count per /64: per address before the key check and per visitor after", async () => {
    const address = fakeLimiter(1_000);
    const visitor = fakeLimiter(1_000);
    const app = createApp();
    for (const ip of ["2001:db8:bb:1::1", "2001:db8:bb:1:8000::2", "203.0.113.9"]) {
      const res = await app.request(
        `${PUBLIC}/services`,
        {
          headers: {
            authorization: `Bearer ${pk.key}`,
            workspace: salon.ws.id,
            "cf-connecting-ip": ip,
            // Set by the client, not by Cloudflare: never picks a bucket.
            "x-forwarded-for": `198.51.100.${Math.floor(Math.random() * 250)}`,
            "x-real-ip": "198.51.100.251",
          },
        },
        {
          ...env,
          ADDRESS_RATE_LIMIT: address.limiter,
          PUBLISHABLE_CLIENT_RATE_LIMIT: visitor.limiter,
        },
      );
      expect(res.status).toBe(200);
    }
    expect(address.keys).toEqual([
      "ip:2001:db8:bb:1::/64",
      "ip:2001:db8:bb:1::/64",
      "ip:203.0.113.9",
    ]);
    expect(visitor.keys).toEqual([
      `pk:${pk.id}:ip:2001:db8:bb:1::/64`,
      `pk:${pk.id}:ip:2001:db8:bb:1::/64`,
      `pk:${pk.id}:ip:203.0.113.9`,
    ]);
  });
});

describe("a publishable key reaches only the services the widget shows", () => {
  it("a service not live, or not live in the widget, is unknown to it: not listed, 404, 422 to book, hold or search", async () => {
    for (const flags of [{ live_in_widget: false }, { live: false }]) {
      const made = await salon.ws.api("/services", {
        method: "POST",
        body: { name: "Staff only", duration: 30, price: 0, ...flags },
      });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      const id = made.body.uuid as string;
      const label = JSON.stringify(flags);

      const list = await pk.api("/services?per_page=100");
      expect(list.status).toBe(200);
      const listed = (list.body.data as { uuid: string }[]).map((s) => s.uuid);
      expect(listed, label).not.toContain(id);
      expect(listed, label).toContain(salon.cut.uuid);
      expect(list.body.meta.total, label).toBe(listed.length);
      expect((await pk.api(`/services/${id}`)).status, label).toBe(404);

      const book = await pk.api("/bookings", {
        method: "POST",
        body: {
          location_uuid: salon.location.uuid,
          service_uuid: id,
          reserved_on: at(3, 9),
          ...customer("+49 151 22220001"),
        },
      });
      expect(book.status, label).toBe(422);
      expect(book.body.errors, label).toEqual({ service_uuid: ["Unknown service."] });

      const item = [{ datetime_start: at(3, 10), services: [{ service_uuid: id }] }];
      const cart = await pk.api("/bookings/cart", {
        method: "POST",
        body: { location_uuid: salon.location.uuid, items: item, ...customer("+49 151 22220001") },
      });
      expect(cart.status, label).toBe(422);
      expect(Object.keys(cart.body.errors), label).toEqual(["items.0.services.0.service_uuid"]);
      const hold = await pk.api("/reservations", {
        method: "POST",
        body: { location_uuid: salon.location.uuid, items: item },
      });
      expect(hold.status, label).toBe(422);
      expect(Object.keys(hold.body.errors), label).toEqual(["items.0.services.0.service_uuid"]);

      const slots = await pk.api(
        `/locations/${salon.location.uuid}/time-slots?range_start=${at(3, 0).slice(0, 10)}&range_end=${at(3, 0).slice(0, 10)}&service_uuid=${id}`,
      );
      expect(slots.status, label).toBe(422);
      const cartSlots = await pk.api(`/locations/${salon.location.uuid}/time-slots/cart`, {
        method: "POST",
        body: {
          range_start: at(3, 0).slice(0, 10),
          range_end: at(3, 0).slice(0, 10),
          services: [{ service_uuid: id }],
        },
      });
      expect(cartSlots.status, `${label} ${JSON.stringify(cartSlots.body)}`).toBe(422);
      const next = await pk.api(`/locations/${salon.location.uuid}/time-slots/cart/next`, {
        method: "POST",
        body: { services: [{ service_uuid: id }] },
      });
      expect(next.status, `${label} ${JSON.stringify(next.body)}`).toBe(422);

      // Staff still see and book it.
      expect((await salon.ws.api(`/services/${id}`)).status).toBe(200);
      const staffBook = await salon.ws.api("/bookings", {
        method: "POST",
        body: {
          location_uuid: salon.location.uuid,
          service_uuid: id,
          reserved_on: at(3, 9),
          ...customer("+49 151 22220002"),
        },
      });
      expect(staffBook.status, JSON.stringify(staffBook.body)).toBe(201);
      // And a customer may still move or cancel such a booking of theirs.
      const moved = await pk.api(`/bookings/${staffBook.body.uuid}/reschedule`, {
        method: "PUT",
        body: { reserved_on: at(3, 11) },
      });
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      await salon.ws.api(`/bookings/${staffBook.body.uuid}/status/cancel`, {
        method: "PUT",
        body: {},
      });
    }
  });
});

describe("what a stranger's requests leave in D1 is swept", () => {
  async function runCron() {
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "* * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
  }

  it("expired Idempotency-Key answers and day-old reservations are deleted by the cron", async () => {
    // Every request with a fresh Idempotency-Key (a 422 too) leaves a row, and every hold made
    // and deleted leaves its reservation: a page's key sends a few a second, and nothing deleted them.
    const stale = await pk.api("/reservations", {
      method: "POST",
      headers: {
        "idempotency-key": `stale-${crypto.randomUUID()}`,
        "cf-connecting-ip": "192.0.2.90",
      },
      body: { location_uuid: salon.location.uuid, items: [] },
    });
    expect(stale.status).toBe(422);
    const fresh = await pk.api("/reservations", {
      method: "POST",
      headers: {
        "idempotency-key": `fresh-${crypto.randomUUID()}`,
        "cf-connecting-ip": "192.0.2.90",
      },
      body: { location_uuid: salon.location.uuid, items: [] },
    });
    expect(fresh.status).toBe(422);
    const old = await holdFrom("192.0.2.91", at(4, 9), staff[0] ?? "");
    const recent = await holdFrom("192.0.2.91", at(4, 10), staff[0] ?? "");
    expect([old.status, recent.status]).toEqual([201, 201]);
    const now = Date.now();
    const day = 86_400_000;
    await everyShard.batch([
      everyShard
        .prepare(
          "update idempotency_keys set expires_at = ? where workspace_id = ? and key like 'stale-%'",
        )
        .bind(now - 1, salon.ws.id),
      everyShard
        .prepare("update reservations set expires_at = ?, created_at = ? where id = ?")
        .bind(now - day - 1000, now - day - 600_000, old.body.uuid),
    ]);

    await runCron();

    const keys = await everyShard
      .prepare("select key from idempotency_keys where workspace_id = ?")
      .bind(salon.ws.id)
      .all<{ key: string }>();
    expect(keys.results.map((r) => r.key.split("-")[0])).toEqual(["fresh"]);
    const held = await everyShard
      .prepare("select id from reservations where id in (?, ?)")
      .bind(old.body.uuid, recent.body.uuid)
      .all<{ id: string }>();
    expect(held.results.map((r) => r.id)).toEqual([recent.body.uuid]);
  });
});
