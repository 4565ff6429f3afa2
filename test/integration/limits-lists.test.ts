import { beforeAll, describe, expect, it } from "vitest";
import { adminDirect, apiDirect } from "../helpers/direct";
import {
  createLocation,
  createStaffer,
  createWorkspace,
  type TestWorkspace,
  WEEKDAYS_9_TO_18,
} from "../helpers/factory";
import { admin, PUBLIC, send } from "../helpers/http";
import { customer, MONDAY } from "../helpers/salon";
import { createCustomer, createPackageTemplate, issueDirect } from "../helpers/packages";

// per_page at its maximum (100) on every list endpoint, with more than 100 records behind
// it: a full page comes back, and the next page holds the rest. 101 is a 422.
const MAX_PER_PAGE = 100;
const COUNT = MAX_PER_PAGE + 1;

let ws: TestWorkspace;
let location: { uuid: string };
let webhookId: number;
let bookingId: string;
let sellerId: string;
let packageOwner: string;

const pad = (i: number) => String(i).padStart(3, "0");
const day = (offset: number) =>
  new Date(Date.parse(`${MONDAY}T00:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);

/** A fresh API key of the workspace, so set-up never eats the test's own rate limit. */
async function setupClient() {
  const key = await admin(`/workspaces/${ws.id}/api-keys`, { method: "POST" });
  expect(key.status).toBe(201);
  return apiDirect({ ...ws, apiKey: key.body.api_key });
}

async function times(n: number, make: (i: number) => Promise<{ status: number; body: unknown }>) {
  const out: unknown[] = [];
  for (let i = 0; i < n; i++) {
    const res = await make(i);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    out.push(res.body);
  }
  return out;
}

beforeAll(async () => {
  ws = await createWorkspace();
  location = await createLocation(ws);
  const seller = await createStaffer(ws, [location.uuid], {
    first_name: "Sam",
    permissions: ["access-pos"],
    schedule: WEEKDAYS_9_TO_18(location.uuid),
  });
  sellerId = seller.uuid;
  const path = (p: string) => `/workspaces/${ws.id}${p}`;
  const post = (p: string, body: unknown) => adminDirect(path(p), { method: "POST", body });

  await times(COUNT, (i) => post("/locations", { name: `Branch ${pad(i)}`, timezone: "UTC" }));
  await times(COUNT, (i) =>
    post("/staffers", { first_name: `Staff ${pad(i)}`, location_uuids: [location.uuid] }),
  );
  await times(COUNT, (i) =>
    post("/customers", { first_name: `Cu ${pad(i)}`, phone: `+49 151 20000${pad(i)}` }),
  );
  // Every location comes with its online account: the branches' 101 and the main one's are
  // already more than a page; a few tills beside them keep the list of more than one kind.
  await times(3, (i) =>
    post("/accounts", { location_uuid: location.uuid, name: `Till ${pad(i)}`, type: "cash" }),
  );
  await times(COUNT, (i) => post("/booking-statuses", { name: `Status ${pad(i)}`, type: "new" }));
  await times(COUNT, (i) =>
    post("/resources", { location_uuid: location.uuid, name: `Room ${pad(i)}`, kind: "room" }),
  );

  const catalogue = await setupClient();
  await times(COUNT, (i) =>
    catalogue("/services", {
      method: "POST",
      body: { name: `Service ${pad(i)}`, duration: 15, price: 100 + i },
    }),
  );
  const goods = (await times(COUNT, (i) =>
    catalogue("/goods", {
      method: "POST",
      body: {
        name: `Good ${pad(i)}`,
        article: `G-${pad(i)}`,
        unit: "pcs",
        is_consumable: false,
        is_payable: true,
        price: 100 + i,
      },
    }),
  )) as { uuid: string }[];

  const till = await setupClient();
  await times(COUNT, (i) =>
    till("/orders", {
      method: "POST",
      body: {
        location_uuid: location.uuid,
        staffer_uuid: seller.uuid,
        goods: [{ good_uuid: goods[i]?.uuid, price: 100 + i, quantity: 1 }],
      },
    }),
  );

  // 101 bookings through carts of 10 items, 30 minutes apart on the seller's weekdays. The
  // service has 2 seats, so each booking is also a group session (GET /sessions lists 101).
  const desk = await setupClient();
  const service = await desk("/services", {
    method: "POST",
    body: { name: "Quick", duration: 15, price: 500, capacity: 2 },
  });
  expect(service.status).toBe(201);
  const perDay = 18; // 08:00Z to 16:30Z, every half hour
  const starts = Array.from({ length: COUNT }, (_, k) => {
    const weekday = Math.floor(k / perDay); // 0 = Monday; past Friday, on to next week
    const date = day(weekday < 5 ? weekday : weekday + 2);
    const minutes = 8 * 60 + (k % perDay) * 30;
    const hh = String(Math.floor(minutes / 60)).padStart(2, "0");
    const mm = String(minutes % 60).padStart(2, "0");
    return `${date}T${hh}:${mm}:00Z`;
  });
  for (let i = 0; i < COUNT; i += 10) {
    const res = await desk("/bookings/cart", {
      method: "POST",
      body: {
        location_uuid: location.uuid,
        items: starts.slice(i, i + 10).map((datetime_start) => ({
          datetime_start,
          services: [{ service_uuid: service.body.uuid, staffer_uuid: seller.uuid }],
        })),
        ...customer(),
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    bookingId ??= res.body.bookings[0].uuid;
  }

  // 101 live reservations (a secret key's: not capped), two weeks after the bookings.
  const holds = await setupClient();
  await times(COUNT, (k) =>
    holds("/reservations", {
      method: "POST",
      body: {
        location_uuid: location.uuid,
        ttl_seconds: 900,
        items: [
          {
            datetime_start: starts[k]?.replace(/^\d{4}-\d\d-\d\d/, (date) =>
              new Date(Date.parse(`${date}T00:00:00Z`) + 14 * 86_400_000)
                .toISOString()
                .slice(0, 10),
            ),
            services: [{ service_uuid: service.body.uuid, staffer_uuid: seller.uuid }],
          },
        ],
      },
    }),
  );

  // 101 waitlist entries, each its own phone (a phone may have 3), wanting a time that never fits.
  const waiting = await setupClient();
  await times(COUNT, (k) =>
    waiting("/waitlist", {
      method: "POST",
      body: {
        location_uuid: location.uuid,
        services: [{ service_uuid: service.body.uuid }],
        customer_phone: `+49 151 8${pad(k)}0000`,
        customer_first_name: "Wait",
        from: day(0),
        to: day(4),
        times: [{ start: "23:30", end: "23:45" }],
      },
    }),
  );

  const hooks = (await times(COUNT, (i) =>
    desk("/webhooks", {
      method: "POST",
      body: { url: `https://example.com/hooks/${i}`, events: ["booking-completed"] },
    }),
  )) as { id: number }[];
  webhookId = hooks[0]?.id ?? 0;

  // 101 package templates, and 101 customer packages of one customer (issued on the shard:
  // selling them through orders would take 101 orders of its own).
  const templates = await times(COUNT, async (i) => {
    const made = await createPackageTemplate(ws, {
      name: `Pack ${pad(i)}`,
      credits: [{ service_uuids: [service.body.uuid], count: 2 }],
    });
    return { status: 201, body: made };
  });
  packageOwner = await createCustomer(ws, "+49 151 70000001");
  await issueDirect(ws, {
    packageUuid: (templates[0] as { uuid: string }).uuid,
    customerUuid: packageOwner,
    quantity: COUNT,
    locationId: location.uuid,
  });
}, 180_000);

/** Every GET of the public document that takes per_page, with a path that can be called. */
async function listPaths(): Promise<string[]> {
  const doc = (await send(`${PUBLIC}/openapi.json`)).body as {
    paths: Record<string, Record<string, { parameters?: { name: string }[] }>>;
  };
  return Object.entries(doc.paths)
    .filter(([, ops]) => ops.get?.parameters?.some((p) => p.name === "per_page"))
    .map(([p]) =>
      p
        .replace("{webhook_id}", String(webhookId))
        .replace("{staffer_uuid}", sellerId)
        .replace("{booking_uuid}", bookingId),
    )
    .map((p) => (p === "/sessions" ? `${p}?${sessionsQuery()}` : p))
    .map((p) => (p === "/customer-packages" ? `${p}?customer_uuid=${packageOwner}` : p));
}

/** GET /sessions needs its location and a range: the 101 bookings' weeks. */
const sessionsQuery = () =>
  `location_uuid=${location.uuid}&from=${day(0)}T00:00:00Z&to=${day(28)}T00:00:00Z`;

/** A list path with more query parameters (it may carry its own already). */
const withQuery = (path: string, query: string) =>
  `${path}${path.includes("?") ? "&" : "?"}${query}`;

// Lists whose records the set-up cannot make 101 of: a webhook's deliveries (they come from
// the queue), a staffer's external calendars (at most 10), a booking's payments (a few per
// booking, from the provider). For those the maximum is still accepted, on fewer records.
const partial = (p: string) =>
  p.endsWith("/deliveries") || p.endsWith("/external-calendars") || p.endsWith("/payments");

describe("per_page at its maximum", () => {
  it("covers every list endpoint of the document", async () => {
    const named = (p: string) =>
      p
        .replace(/\?.*$/, "")
        .replace(/\/\d+\//, "/{webhook_id}/")
        .replace(sellerId, "{staffer_uuid}")
        .replace(bookingId, "{booking_uuid}");
    expect((await listPaths()).map(named).sort()).toEqual(
      [
        "/accounts",
        "/booking-statuses",
        "/bookings",
        "/bookings/{booking_uuid}/payments",
        "/customer-packages",
        "/customers",
        "/goods",
        "/locations",
        "/messages",
        "/orders",
        "/packages",
        "/reservations",
        "/resources",
        "/services",
        "/sessions",
        "/staffers",
        "/staffers/{staffer_uuid}/external-calendars",
        "/waitlist",
        "/webhooks",
        "/webhooks/{webhook_id}/deliveries",
      ].sort(),
    );
  });

  it("answers a full page of 100 on every list, and the rest on the next page", async () => {
    for (const path of await listPaths()) {
      const first = await ws.api(withQuery(path, "per_page=100"));
      expect(first.status, `${path}: ${JSON.stringify(first.body)}`).toBe(200);
      expect(first.body.meta.per_page, path).toBe(MAX_PER_PAGE);
      if (partial(path)) {
        expect(first.body.data.length, path).toBeLessThanOrEqual(MAX_PER_PAGE);
        continue;
      }
      const { total } = first.body.meta;
      expect(total, path).toBeGreaterThanOrEqual(COUNT);
      expect(total, path).toBeLessThanOrEqual(2 * MAX_PER_PAGE);
      expect(first.body.data, path).toHaveLength(MAX_PER_PAGE);
      expect(first.body.meta, path).toMatchObject({ from: 1, to: 100, last_page: 2 });
      const second = await ws.api(withQuery(path, "per_page=100&page=2"));
      expect(second.status, path).toBe(200);
      expect(second.body.data, path).toHaveLength(total - MAX_PER_PAGE);
      // A session has no id of its own: its staffer, service and start name it.
      const ids = [...first.body.data, ...second.body.data].map(
        (x: { uuid?: string; id?: number; start?: string; staffer_uuid?: string }) =>
          x.uuid ?? x.id ?? `${x.staffer_uuid} ${x.start}`,
      );
      expect(new Set(ids).size, path).toBe(total);
    }
  });

  it("takes limit=100 as the alias", async () => {
    for (const path of await listPaths()) {
      const res = await ws.api(withQuery(path, "limit=100"));
      expect(res.status, path).toBe(200);
      expect(res.body.meta.per_page, path).toBe(MAX_PER_PAGE);
    }
  });

  it("refuses per_page=101 and limit=101 with 422 on every list", async () => {
    for (const path of await listPaths()) {
      for (const param of ["per_page", "limit"]) {
        const res = await ws.api(withQuery(path, `${param}=101`));
        expect(res.status, path).toBe(422);
        expect(res.body, path).toEqual({
          message: expect.any(String),
          code: "validation_failed",
          errors: { [param]: [expect.any(String)] },
        });
      }
    }
  });
});
