import { beforeAll, describe, expect, it } from "vitest";
import { d1RoundTrips, type Sent } from "../helpers/http";
import { createPublishableKey, type PublishableKey } from "../helpers/keys";
import { createSalon, customer, type Salon } from "../helpers/salon";
import { everyShard } from "../helpers/every-shard";

/**
 * A stranger with the widget's publishable key must not be able to fill a
 * salon with real bookings: each booking or cart is bounded like a hold (4
 * services, 4 hours of staff time), and one visitor (key and client address)
 * books at most 6 bookings a day, canceled ones included (unless staff canceled them).
 */

const CAP = 6;

let salon: Salon;
let pk: PublishableKey;
let staff: string[];

beforeAll(async () => {
  salon = await createSalon(3);
  pk = await createPublishableKey(salon.ws);
  staff = salon.staffers.map((s) => s.uuid);
});

let days = 0;
/** A weekday of its own per call (from Monday 2030-06-03), so tests never share calendar time. */
const nextDay = () => {
  const n = days++;
  const week = Math.floor(n / 5);
  const d = new Date(Date.parse("2030-06-03T00:00:00Z") + (week * 7 + (n % 5)) * 86_400_000);
  return d.toISOString().slice(0, 10);
};
/** 08:00Z..15:00Z is inside 09–18 Berlin time in summer. */
const at = (day: string, hh: number, mm = 0) =>
  `${day}T${String(hh).padStart(2, "0")}:${String(mm).padStart(2, "0")}:00Z`;

let addresses = 0;
/** A visitor: the publishable key from an address of its own (the cap counts per address). */
const visitor = (ip = `203.0.113.${++addresses}`) => {
  return (path: string, sent: Sent = {}) =>
    pk.api(path, { ...sent, headers: { "cf-connecting-ip": ip, ...sent.headers } });
};
type Api = ReturnType<typeof visitor>;

const services = (serviceIds: string[], stafferId?: string) =>
  serviceIds.map((id) => ({ service_uuid: id, ...(stafferId ? { staffer_uuid: stafferId } : {}) }));

const book = (api: Api, start: string, stafferId?: string, serviceId = salon.cut.uuid) =>
  api("/bookings", {
    method: "POST",
    body: {
      location_uuid: salon.location.uuid,
      service_uuid: serviceId,
      ...(stafferId ? { staffer_uuid: stafferId } : {}),
      reserved_on: start,
      ...customer(),
    },
  });

const cart = (api: Api, items: unknown[]) =>
  api("/bookings/cart", {
    method: "POST",
    body: { location_uuid: salon.location.uuid, items, ...customer() },
  });

const calendarCalls = (headers: Headers) => {
  const match = /calendar;dur=[\d.]+;desc="(\d+) calls"/.exec(headers.get("server-timing") ?? "");
  return match?.[1] ? Number(match[1]) : 0;
};

async function createService(body: Record<string, unknown>) {
  const res = await salon.ws.api("/services", { method: "POST", body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { uuid: string };
}

const rowsOf = async () => {
  const row = await everyShard
    .prepare(
      "select (select count(*) from bookings where workspace_id = ?1) as bookings, (select count(*) from calendar_entries where workspace_id = ?1) as entries, (select count(*) from orders where workspace_id = ?1) as orders",
    )
    .bind(salon.ws.id)
    .first<{ bookings: number; entries: number; orders: number }>();
  return row;
};

/** Books `CAP` single bookings for `api` on `day`, all 201. */
async function fill(api: Api, day: string) {
  const made: string[] = [];
  for (let i = 0; i < CAP; i++) {
    const res = await book(api, at(day, 8 + Math.floor(i / 3)), staff[i % 3]);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    // The visitor's count is read beside the planning read: no round trip of its own.
    expect(d1RoundTrips(res.headers)).toBeLessThanOrEqual(3);
    made.push(res.body.uuid);
  }
  return made;
}

describe("bounds of one publishable booking or cart (as a hold's)", () => {
  it("a cart of 4 services is booked; 5 are 422 on the item's services, before any calendar call", async () => {
    const day = nextDay();
    const four = await cart(visitor(), [
      { datetime_start: at(day, 8), services: services(Array(4).fill(salon.cut.uuid), staff[0]) },
    ]);
    expect(four.status, JSON.stringify(four.body)).toBe(201);

    const five = await cart(visitor(), [
      { datetime_start: at(day, 8), services: services(Array(5).fill(salon.cut.uuid), staff[1]) },
    ]);
    expect(five.status, JSON.stringify(five.body)).toBe(422);
    expect(five.body.code).toBe("validation_failed");
    expect(Object.keys(five.body.errors)).toEqual(["items.0.services"]);
    expect(five.body.errors["items.0.services"][0]).toContain("at most 4 services");
    expect(calendarCalls(five.headers)).toBe(0);

    // Counted over all items: 2 + 3 is five, reported on the item that goes past it.
    const spread = await cart(visitor(), [
      { datetime_start: at(day, 8), services: services(Array(2).fill(salon.cut.uuid), staff[1]) },
      { datetime_start: at(day, 8), services: services(Array(3).fill(salon.cut.uuid), staff[2]) },
    ]);
    expect(spread.status, JSON.stringify(spread.body)).toBe(422);
    expect(Object.keys(spread.body.errors)).toEqual(["items.1.services"]);

    // A secret key may book more.
    const staffCart = await cart(salon.ws.api, [
      { datetime_start: at(day, 8), services: services(Array(5).fill(salon.cut.uuid), staff[2]) },
    ]);
    expect(staffCart.status, JSON.stringify(staffCart.body)).toBe(201);
  });

  it("4 hours of staff time are booked; 4 hours and a minute are 422 on the service that does not fit", async () => {
    const day = nextDay();
    const long = await createService({ name: "Four hours", duration: 240, price: 10000 });
    const longer = await createService({ name: "Four hours, 1 min", duration: 241, price: 10000 });
    const short = await createService({ name: "Five minutes", duration: 5, price: 100 });

    const ok = await book(visitor(), at(day, 8), staff[0], long.uuid);
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    const okCart = await cart(visitor(), [
      { datetime_start: at(day, 8), services: services([long.uuid], staff[1]) },
    ]);
    expect(okCart.status, JSON.stringify(okCart.body)).toBe(201);

    const over = await book(visitor(), at(day, 8), staff[2], longer.uuid);
    expect(over.status, JSON.stringify(over.body)).toBe(422);
    expect(over.body.code).toBe("validation_failed");
    expect(Object.keys(over.body.errors)).toEqual(["service_uuid"]);
    expect(over.body.errors.service_uuid[0]).toContain("at most 4 hours of staff time");
    expect(calendarCalls(over.headers)).toBe(0);

    const summed = await cart(visitor(), [
      { datetime_start: at(day, 8), services: services([long.uuid], staff[2]) },
      { datetime_start: at(day, 13), services: services([short.uuid], staff[2]) },
    ]);
    expect(summed.status, JSON.stringify(summed.body)).toBe(422);
    expect(Object.keys(summed.body.errors)).toEqual(["items.1.services.0.service_uuid"]);
    expect(calendarCalls(summed.headers)).toBe(0);

    // Staff may book longer.
    const staffBooking = await book(salon.ws.api, at(day, 8), staff[2], longer.uuid);
    expect(staffBooking.status, JSON.stringify(staffBooking.body)).toBe(201);
  });

  it("a cart of 10 items of 10 services each is 422 and writes nothing", async () => {
    const day = nextDay();
    const before = await rowsOf();
    const items = Array.from({ length: 10 }, (_, i) => ({
      datetime_start: at(day, 8 + (i % 7)),
      services: services(Array(10).fill(salon.cut.uuid)),
    }));
    const res = await cart(visitor(), items);
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body.code).toBe("validation_failed");
    expect(Object.keys(res.body.errors)).toEqual(["items.0.services"]);
    expect(calendarCalls(res.headers)).toBe(0);
    expect(await rowsOf()).toEqual(before);
  });
});

describe("bookings per visitor (publishable key and client address)", () => {
  it(`books ${CAP} bookings; the next is 429 too_many_bookings with Retry-After, before any calendar call`, async () => {
    const me = visitor();
    const day = nextDay();
    await fill(me, day);
    const next = await book(me, at(day, 12), staff[0]);
    expect(next.status, JSON.stringify(next.body)).toBe(429);
    expect(next.body.code).toBe("too_many_bookings");
    // Until the first of them is a day old.
    const wait = Number(next.headers.get("retry-after"));
    expect(wait).toBeGreaterThan(86_400 - 120);
    expect(wait).toBeLessThanOrEqual(86_400);
    expect(calendarCalls(next.headers)).toBe(0);

    // A cart too, and so is a booking from the visitor's own hold (holds are no way around it).
    const nextCart = await cart(me, [
      { datetime_start: at(day, 12), services: services([salon.cut.uuid], staff[1]) },
    ]);
    expect(nextCart.status, JSON.stringify(nextCart.body)).toBe(429);
    expect(nextCart.body.code).toBe("too_many_bookings");
    const held = await me("/reservations", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        items: [{ datetime_start: at(day, 12), services: services([salon.cut.uuid], staff[2]) }],
      },
    });
    expect(held.status, JSON.stringify(held.body)).toBe(201);
    const fromHold = await me("/bookings/cart", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        reservation_uuid: held.body.uuid,
        items: [{ datetime_start: at(day, 12), services: services([salon.cut.uuid], staff[2]) }],
        ...customer(),
      },
    });
    expect(fromHold.status, JSON.stringify(fromHold.body)).toBe(429);
    expect(fromHold.body.code).toBe("too_many_bookings");
  });

  it("a cart counts each booking it creates", async () => {
    const me = visitor();
    const day = nextDay();
    const two = (hh: number) => [
      { datetime_start: at(day, hh), services: services([salon.cut.uuid], staff[0]) },
      { datetime_start: at(day, hh), services: services([salon.cut.uuid], staff[1]) },
    ];
    for (const hh of [8, 9]) {
      const res = await cart(me, two(hh));
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    // 4 made: a cart of 3 would make 7.
    const three = await cart(me, [
      ...two(10),
      { datetime_start: at(day, 10), services: services([salon.cut.uuid], staff[2]) },
    ]);
    expect(three.status, JSON.stringify(three.body)).toBe(429);
    expect(three.body.code).toBe("too_many_bookings");
    const exact = await cart(me, two(11));
    expect(exact.status, JSON.stringify(exact.body)).toBe(201);
    expect((await book(me, at(day, 12), staff[2])).status).toBe(429);
  });

  it(`bookings fired at once by one visitor: exactly ${CAP} succeed, the rest are 429`, async () => {
    const me = visitor();
    const day = nextDay();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => book(me, at(day, 8 + Math.floor(i / 3)), staff[i % 3])),
    );
    const statuses = answers.map((a) => a.status);
    expect(
      statuses.filter((s) => s === 201).length,
      JSON.stringify(answers.map((a) => a.body)),
    ).toBe(CAP);
    expect(statuses.filter((s) => s === 429).length).toBe(20 - CAP);
    for (const refused of answers.filter((a) => a.status === 429)) {
      expect(refused.body.code).toBe("too_many_bookings");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    const made = answers.filter((a) => a.status === 201).map((a) => a.body.uuid as string);
    const rows = await everyShard
      .prepare("select id from bookings where workspace_id = ? and start_at >= ? and start_at < ?")
      .bind(salon.ws.id, Date.parse(at(day, 0)), Date.parse(at(day, 23)))
      .all<{ id: string }>();
    expect(rows.results.map((r) => r.id).sort()).toEqual([...made].sort());
  });

  it("the visitor's own cancels still count (book-then-cancel is two messages); staff's do not", async () => {
    const me = visitor();
    const day = nextDay();
    const made = await fill(me, day);
    expect((await book(me, at(day, 12), staff[0])).status).toBe(429);
    const cancel = await me(`/bookings/${made[0]}/status/cancel`, { method: "PUT", body: {} });
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
    const still = await book(me, at(day, 12), staff[0]);
    expect(still.status, JSON.stringify(still.body)).toBe(429);
    expect(still.body.code).toBe("too_many_bookings");
    const byStaff = await salon.ws.api(`/bookings/${made[1]}/status/cancel`, {
      method: "PUT",
      body: {},
    });
    expect(byStaff.status, JSON.stringify(byStaff.body)).toBe(200);
    const again = await book(me, at(day, 12), staff[0]);
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect((await book(me, at(day, 13), staff[0])).status).toBe(429);
  });

  it("another visitor of the page (another address, or another /64) is not affected", async () => {
    const me = visitor("2001:db8:77:1::1");
    const day = nextDay();
    await fill(me, day);
    // Another address of the same /64 is the same visitor.
    expect((await book(visitor("2001:db8:77:1::2"), at(day, 12), staff[0])).status).toBe(429);
    const other = await book(visitor("2001:db8:77:2::1"), at(day, 12), staff[0]);
    expect(other.status, JSON.stringify(other.body)).toBe(201);
    const otherV4 = await book(visitor(), at(day, 12), staff[1]);
    expect(otherV4.status, JSON.stringify(otherV4.body)).toBe(201);
  });

  it("secret keys are not capped, and their bookings do not count for the visitor", async () => {
    const me = visitor();
    const day = nextDay();
    await fill(me, day);
    expect((await book(me, at(day, 12), staff[0])).status).toBe(429);
    const ip = { headers: { "cf-connecting-ip": `203.0.113.${addresses}` } };
    for (let i = 0; i < CAP + 2; i++) {
      const res = await salon.ws.api("/bookings", {
        method: "POST",
        body: {
          location_uuid: salon.location.uuid,
          service_uuid: salon.cut.uuid,
          staffer_uuid: staff[i % 3],
          reserved_on: at(day, 12 + Math.floor(i / 3)),
          ...customer(),
        },
        ...ip,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
  });
});
