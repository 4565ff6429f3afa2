import { beforeAll, describe, expect, it } from "vitest";
import { expectInSync, expectUnitsInSync } from "../helpers/calendar";
import { createPublishableKey, type PublishableKey } from "../helpers/keys";
import { createResource, type TestResource } from "../helpers/resources";
import { createAccount } from "../helpers/shop";
import { at, createSalon, customer, type Salon } from "../helpers/salon";
import { everyShard } from "../helpers/every-shard";

/**
 * Group services (capacity > 1): bookings at one start with one staffer
 * share that staffer's time as a session, up to capacity seats, through
 * HTTP against real D1 and calendar objects.
 */
let salon: Salon;
let other: Salon;
let staff: string[];
/** Yoga: 60 minutes, 5 seats, 2000 per seat. */
let yoga: { uuid: string; capacity: number };
/** A workshop needing the (one) studio room: 4 seats. */
let workshop: { uuid: string };
let studio: TestResource;
let pk: PublishableKey;

// Each describe works on its own Monday (Berlin is UTC+2 from April: 08:00Z is 10:00 local).
const monday = (week: number) =>
  new Date(Date.parse("2030-04-01T00:00:00Z") + week * 7 * 86_400_000).toISOString().slice(0, 10);

async function service(s: Salon, body: Record<string, unknown>) {
  const res = await s.ws.api("/services", { method: "POST", body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { uuid: string; capacity: number };
}

const book = (
  start: string,
  serviceId: string,
  more: { staffer?: string; quantity?: number; phone?: string } = {},
  s: Salon = salon,
) =>
  s.ws.api("/bookings", {
    method: "POST",
    body: {
      location_uuid: s.location.uuid,
      service_uuid: serviceId,
      reserved_on: start,
      ...(more.staffer ? { staffer_uuid: more.staffer } : {}),
      ...(more.quantity !== undefined ? { quantity: more.quantity } : {}),
      ...customer(more.phone),
    },
  });

async function slotsOn(date: string, serviceId: string, stafferId?: string) {
  const res = await salon.ws.api(
    `/locations/${salon.location.uuid}/time-slots?service_uuid=${serviceId}&range_start=${date}&range_end=${date}${stafferId ? `&staffer_uuid=${stafferId}` : ""}`,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const slots = res.body.dates[0].slots as { start: string; quantity: number }[];
  return new Map(slots.map((s) => [s.start, s.quantity]));
}

interface SessionBody {
  start: string;
  staffer_uuid: string;
  service_uuid: string;
  capacity: number;
  seats_taken: number;
  booking_uuids: string[];
}

async function sessionsOn(date: string, serviceId = yoga.uuid, s: Salon = salon) {
  const from = `${date}T00:00:00Z`;
  const to = new Date(Date.parse(from) + 86_400_000).toISOString();
  const res = await s.ws.api(
    `/sessions?location_uuid=${s.location.uuid}&service_uuid=${serviceId}&from=${from}&to=${to}`,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as SessionBody[];
}

const cancel = (uuid: string) =>
  salon.ws.api(`/bookings/${uuid}/status/cancel`, { method: "PUT", body: {} });

beforeAll(async () => {
  salon = await createSalon(2);
  other = await createSalon(1);
  staff = salon.staffers.map((s) => s.uuid);
  yoga = await service(salon, { name: "Yoga", duration: 60, price: 2000, capacity: 5 });
  studio = await createResource(salon.ws, salon.location.uuid, { name: "Studio", kind: "room" });
  workshop = await service(salon, {
    name: "Workshop",
    duration: 60,
    price: 5000,
    capacity: 4,
    resource_uuids: [studio.uuid],
  });
  pk = await createPublishableKey(salon.ws);
});

describe("capacity on services", () => {
  it("shows capacity, defaults to 1 and changes with PATCH", async () => {
    expect(yoga.capacity).toBe(5);
    expect((await salon.ws.api(`/services/${salon.cut.uuid}`)).body.capacity).toBe(1);
    const patched = await salon.ws.api(`/services/${salon.cut.uuid}`, {
      method: "PATCH",
      body: { capacity: 3 },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.capacity).toBe(3);
    const back = await salon.ws.api(`/services/${salon.cut.uuid}`, {
      method: "PATCH",
      body: { capacity: 1 },
    });
    expect(back.body.capacity).toBe(1);
  });

  it.each([0, 101, 2.5, "3"])("refuses capacity %s with 422 and writes nothing", async (bad) => {
    const created = await salon.ws.api("/services", {
      method: "POST",
      body: { name: "Bad", duration: 30, price: 100, capacity: bad },
    });
    expect(created.status).toBe(422);
    expect(created.body.code).toBe("validation_failed");
    expect(created.body.errors.capacity).toBeDefined();
    const patched = await salon.ws.api(`/services/${yoga.uuid}`, {
      method: "PATCH",
      body: { capacity: bad },
    });
    expect(patched.status).toBe(422);
    expect(patched.body.errors.capacity).toBeDefined();
    expect((await salon.ws.api(`/services/${yoga.uuid}`)).body.capacity).toBe(5);
  });

  it("PATCH of an unknown or another workspace's service is 404; a publishable key is 403", async () => {
    const foreign = await other.ws.api(`/services/${yoga.uuid}`, {
      method: "PATCH",
      body: { capacity: 2 },
    });
    expect(foreign.status).toBe(404);
    const widget = await pk.api(`/services/${yoga.uuid}`, {
      method: "PATCH",
      body: { capacity: 2 },
      headers: { origin: "https://salon.example" },
    });
    expect(widget.status).toBe(403);
    expect(widget.body.code).toBe("forbidden");
  });
});

describe("booking seats", () => {
  const date = monday(0);

  it("joins one session, prices per seat, and search shows the seats left", async () => {
    const first = await book(at("08:00", date), yoga.uuid, { staffer: staff[0], quantity: 2 });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.quantity).toBe(2);
    expect(first.body.ordered_services[0].quantity).toBe(2);
    expect(first.body.ordered_services[0].price).toBe(2000);
    expect(first.body.order.total).toBe(4000);

    const second = await book(at("08:00", date), yoga.uuid, { staffer: staff[0] });
    expect(second.status, JSON.stringify(second.body)).toBe(201);
    expect(second.body.quantity).toBe(1);

    // Staffer 0's session has 2 left; staffer 1 could open a new one (5).
    expect((await slotsOn(date, yoga.uuid, staff[0])).get("10:00")).toBe(2);
    expect((await slotsOn(date, yoga.uuid)).get("10:00")).toBe(2 + 5);
    // Starts overlapping the session are not the session: staffer 0 is busy then.
    expect((await slotsOn(date, yoga.uuid, staff[0])).has("10:30")).toBe(false);

    const sessions = await sessionsOn(date);
    expect(sessions).toEqual([
      {
        start: at("08:00", date),
        staffer_uuid: staff[0],
        service_uuid: yoga.uuid,
        capacity: 5,
        seats_taken: 3,
        booking_uuids: [first.body.uuid, second.body.uuid].sort(),
      },
    ]);
    await expectInSync(salon.ws.id, staff);
  });

  it("refuses more seats than are left with 409 session_full and alternatives", async () => {
    const res = await book(at("08:00", date), yoga.uuid, { staffer: staff[0], quantity: 3 });
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(res.body.code).toBe("session_full");
    expect(Array.isArray(res.body.alternatives)).toBe(true);
    expect(res.body.alternatives.length).toBeGreaterThan(0);
    const fits = await book(at("08:00", date), yoga.uuid, { staffer: staff[0], quantity: 2 });
    expect(fits.status, JSON.stringify(fits.body)).toBe(201);
    // Full now: not listed for staffer 0, and one more seat is session_full.
    expect((await slotsOn(date, yoga.uuid, staff[0])).has("10:00")).toBe(false);
    const more = await book(at("08:00", date), yoga.uuid, { staffer: staff[0] });
    expect(more.status).toBe(409);
    expect(more.body.code).toBe("session_full");
    expect((await sessionsOn(date))[0]?.seats_taken).toBe(5);
  });

  it("an 'anyone' booking fills an open session first, then another staffer's", async () => {
    const res = await book(at("08:00", date), yoga.uuid, { quantity: 2 });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.ordered_services[0].staffer_uuid).toBe(staff[1]);
    const again = await book(at("08:00", date), yoga.uuid);
    expect(again.body.ordered_services[0].staffer_uuid).toBe(staff[1]);
    const sessions = await sessionsOn(date);
    expect(sessions.map((s) => [s.staffer_uuid, s.seats_taken])).toEqual(
      [
        [staff[0], 5],
        [staff[1], 3],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
    await expectInSync(salon.ws.id, staff);
  });

  it.each([0, 6, 101, 1.5])("quantity %s is 422 with nothing written", async (quantity) => {
    const before = await sessionsOn(date);
    const res = await book(at("12:00", date), yoga.uuid, { staffer: staff[0], quantity });
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body.code).toBe("validation_failed");
    expect(res.body.errors.quantity).toBeDefined();
    expect(await sessionsOn(date)).toEqual(before);
  });

  it("quantity above 1 on a one-seat service is 422", async () => {
    const res = await book(at("12:00", date), salon.cut.uuid, { staffer: staff[0], quantity: 2 });
    expect(res.status).toBe(422);
    expect(res.body.errors.quantity).toBeDefined();
  });
});

describe("sessions and other services", () => {
  const date = monday(1);

  it("nothing else may overlap a session, and a session may not overlap other bookings", async () => {
    const seat = await book(at("08:00", date), yoga.uuid, { staffer: staff[0] });
    expect(seat.status).toBe(201);
    const cut = await book(at("08:30", date), salon.cut.uuid, { staffer: staff[0] });
    expect(cut.status).toBe(409);
    expect(cut.body.code).toBe("slot_unavailable");
    // Another session of the same service at an overlapping start is not the same session.
    const shifted = await book(at("08:30", date), yoga.uuid, { staffer: staff[0] });
    expect(shifted.status).toBe(409);
    expect(shifted.body.code).toBe("slot_unavailable");

    const cutFirst = await book(at("11:00", date), salon.cut.uuid, { staffer: staff[1] });
    expect(cutFirst.status).toBe(201);
    const session = await book(at("10:30", date), yoga.uuid, { staffer: staff[1] });
    expect(session.status).toBe(409);
    expect(session.body.code).toBe("slot_unavailable");
    await expectInSync(salon.ws.id, staff);
  });
});

describe("cancel and reschedule between sessions", () => {
  const date = monday(2);

  it("cancel frees its seats; the last one frees the staffer", async () => {
    const a = await book(at("08:00", date), yoga.uuid, { staffer: staff[0], quantity: 2 });
    const b = await book(at("08:00", date), yoga.uuid, { staffer: staff[0] });
    expect([a.status, b.status]).toEqual([201, 201]);
    expect((await cancel(a.body.uuid)).status).toBe(200);
    expect((await sessionsOn(date))[0]).toMatchObject({
      seats_taken: 1,
      booking_uuids: [b.body.uuid],
    });
    expect((await slotsOn(date, yoga.uuid, staff[0])).get("10:00")).toBe(4);
    // Still a session: a one-to-one service cannot take the staffer yet.
    expect((await book(at("08:00", date), salon.cut.uuid, { staffer: staff[0] })).status).toBe(409);
    expect((await cancel(b.body.uuid)).status).toBe(200);
    expect(await sessionsOn(date)).toEqual([]);
    const cut = await book(at("08:00", date), salon.cut.uuid, { staffer: staff[0] });
    expect(cut.status, JSON.stringify(cut.body)).toBe(201);
    await expectInSync(salon.ws.id, staff);
  });

  it("a reschedule moves the seats to another session, refused when that one is full", async () => {
    const a = await book(at("08:00", date), yoga.uuid, { staffer: staff[1], quantity: 2 });
    const b = await book(at("10:00", date), yoga.uuid, { staffer: staff[1], quantity: 4 });
    expect([a.status, b.status]).toEqual([201, 201]);
    const full = await salon.ws.api(`/bookings/${a.body.uuid}/reschedule`, {
      method: "PUT",
      body: { reserved_on: at("10:00", date) },
    });
    expect(full.status, JSON.stringify(full.body)).toBe(409);
    expect(full.body.code).toBe("session_full");

    const c = await book(at("12:00", date), yoga.uuid, { staffer: staff[1], quantity: 3 });
    expect(c.status).toBe(201);
    const moved = await salon.ws.api(`/bookings/${a.body.uuid}/reschedule`, {
      method: "PUT",
      body: { reserved_on: at("12:00", date) },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const sessions = await sessionsOn(date);
    const byStart = new Map(sessions.map((s) => [s.start, s]));
    expect(byStart.has(at("08:00", date))).toBe(false);
    expect(byStart.get(at("12:00", date))?.seats_taken).toBe(5);
    expect(byStart.get(at("12:00", date))?.booking_uuids).toEqual(
      [a.body.uuid, c.body.uuid].sort(),
    );
    await expectInSync(salon.ws.id, staff);
  });

  it("change staffer moves a booking into that staffer's session", async () => {
    const a = await book(at("15:00", monday(3)), yoga.uuid, { staffer: staff[0] });
    const b = await book(at("15:00", monday(3)), yoga.uuid, { staffer: staff[1], quantity: 4 });
    expect([a.status, b.status]).toEqual([201, 201]);
    const moved = await salon.ws.api(`/bookings/${a.body.uuid}/staffer`, {
      method: "PUT",
      body: { staffer_uuid: staff[1] },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const sessions = await sessionsOn(monday(3));
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({ staffer_uuid: staff[1], seats_taken: 5 });
    await expectInSync(salon.ws.id, staff);
  });
});

describe("resources per session", () => {
  const date = monday(4);

  it("a session takes one unit of the room for all its seats", async () => {
    const a = await book(at("08:00", date), workshop.uuid, { staffer: staff[0], quantity: 2 });
    const b = await book(at("08:00", date), workshop.uuid, { staffer: staff[0], quantity: 2 });
    expect([a.status, b.status], JSON.stringify([a.body, b.body])).toEqual([201, 201]);
    // The one room is the session's: staffer 1 cannot open another session then.
    const second = await book(at("08:00", date), workshop.uuid, { staffer: staff[1] });
    expect(second.status).toBe(409);
    expect(second.body.code).toBe("slot_unavailable");
    expect((await slotsOn(date, workshop.uuid)).has("10:00")).toBe(false);
    await expectInSync(salon.ws.id, staff);
    await expectUnitsInSync(salon.ws.id, [{ uuid: studio.uuid, quantity: 1 }]);
  });
});

describe("review fixes", () => {
  const date = monday(20);

  it("a class that needs a room keeps its staffer: a staffer change is 422, the room stays one session's", async () => {
    const a = await book(at("08:00", date), workshop.uuid, { staffer: staff[0], quantity: 2 });
    const b = await book(at("08:00", date), workshop.uuid, { staffer: staff[0], quantity: 2 });
    expect([a.status, b.status], JSON.stringify([a.body, b.body])).toEqual([201, 201]);
    const moved = await salon.ws.api(`/bookings/${a.body.uuid}/staffer`, {
      method: "PUT",
      body: { staffer_uuid: staff[1] },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(422);
    expect(Object.keys(moved.body.errors)).toEqual(["staffer_uuid"]);
    const sessions = await sessionsOn(date, workshop.uuid);
    expect(sessions.map((x) => [x.staffer_uuid, x.seats_taken])).toEqual([[staff[0], 4]]);
    await expectInSync(salon.ws.id, staff);
    await expectUnitsInSync(salon.ws.id, [{ uuid: studio.uuid, quantity: 1 }]);
  });

  it("a publishable key's items without quantity count a seat each towards its 10", async () => {
    const item = (quantity?: number) => ({
      datetime_start: at("08:00", monday(21)),
      services: [
        { service_uuid: yoga.uuid, staffer_uuid: staff[0], ...(quantity ? { quantity } : {}) },
      ],
    });
    const res = await pk.api("/bookings/cart", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        items: [item(5), item(), item(5)],
        ...customer("+49 151 44440000"),
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(["items.2.services.0.quantity"]);
  });
});

describe("seats under concurrency", () => {
  it("12 concurrent one-seat bookings on 5 seats: exactly 5 win", async () => {
    const date = monday(5);
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        book(at("08:00", date), yoga.uuid, {
          staffer: staff[0],
          phone: `+49 151 1000${String(i).padStart(4, "0")}`,
        }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(statuses.filter((s) => s !== 201)).toEqual(Array(7).fill(409));
    for (const r of results.filter((r) => r.status === 409))
      expect(r.body.code).toBe("session_full");
    const sessions = await sessionsOn(date);
    expect(sessions).toHaveLength(1);
    expect(sessions[0]?.seats_taken).toBe(5);
    await expectInSync(salon.ws.id, staff);
  });

  it("concurrent first bookers of a new session end in one session", async () => {
    const date = monday(6);
    const results = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        book(at("08:00", date), yoga.uuid, {
          staffer: staff[1],
          quantity: 1,
          phone: `+49 151 2000${String(i).padStart(4, "0")}`,
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    const sessions = await sessionsOn(date);
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({ staffer_uuid: staff[1], seats_taken: 4 });
    await expectInSync(salon.ws.id, staff);
  });
});

describe("keys and tenancy", () => {
  it("GET /sessions is 403 forbidden for a publishable key", async () => {
    const res = await pk.api(
      `/sessions?location_uuid=${salon.location.uuid}&from=2030-04-01T00:00:00Z&to=2030-04-02T00:00:00Z`,
      { headers: { origin: "https://salon.example" } },
    );
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("forbidden");
  });

  it("a publishable key's booking may take quantity", async () => {
    const date = monday(7);
    const res = await pk.api("/bookings", {
      method: "POST",
      headers: { origin: "https://salon.example" },
      body: {
        location_uuid: salon.location.uuid,
        service_uuid: yoga.uuid,
        reserved_on: at("08:00", date),
        quantity: 3,
        ...customer("+49 151 30000001"),
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.quantity).toBe(3);
    expect((await sessionsOn(date))[0]?.seats_taken).toBe(3);
  });

  it("a publishable key takes at most 10 seats in one request (422 on quantity); staff more", async () => {
    const party = await service(salon, { name: "Party", duration: 60, price: 1000, capacity: 20 });
    const date = monday(7);
    const widget = (path: string, body: Record<string, unknown>) =>
      pk.api(path, { method: "POST", headers: { origin: "https://salon.example" }, body });
    const booking = await widget("/bookings", {
      location_uuid: salon.location.uuid,
      service_uuid: party.uuid,
      reserved_on: at("12:00", date),
      quantity: 11,
      ...customer("+49 151 30000002"),
    });
    expect(booking.status).toBe(422);
    expect(Object.keys(booking.body.errors)).toEqual(["quantity"]);
    const held = await widget("/reservations", {
      location_uuid: salon.location.uuid,
      items: [
        {
          datetime_start: at("12:00", date),
          services: [{ service_uuid: party.uuid, quantity: 11 }],
        },
      ],
    });
    expect(held.status).toBe(422);
    expect(Object.keys(held.body.errors)).toEqual(["items.0.services.0.quantity"]);
    const staffBooking = await book(at("12:00", date), party.uuid, { quantity: 20 });
    expect(staffBooking.status, JSON.stringify(staffBooking.body)).toBe(201);
  });

  it("another workspace sees none of these sessions and cannot book this service", async () => {
    const res = await other.ws.api(
      `/sessions?location_uuid=${salon.location.uuid}&from=2030-04-01T00:00:00Z&to=2030-05-31T00:00:00Z`,
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
    expect(res.body.meta.total).toBe(0);
    const booking = await book(at("08:00", monday(0)), yoga.uuid, {}, other);
    expect(booking.status).toBe(422);
  });

  it("refuses a range over 62 days or backwards with 422", async () => {
    const long = await salon.ws.api(
      `/sessions?location_uuid=${salon.location.uuid}&from=2030-01-01T00:00:00Z&to=2030-06-01T00:00:00Z`,
    );
    expect(long.status).toBe(422);
    expect(long.body.errors.to).toBeDefined();
    const back = await salon.ws.api(
      `/sessions?location_uuid=${salon.location.uuid}&from=2030-02-01T00:00:00Z&to=2030-01-01T00:00:00Z`,
    );
    expect(back.status).toBe(422);
  });
});

describe("carts, reservations, series and other changes take seats", () => {
  const date = monday(8);

  it("a cart item books seats of a session beside a one-to-one service", async () => {
    const res = await salon.ws.api("/bookings/cart", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        items: [
          {
            datetime_start: at("08:00", date),
            services: [
              { service_uuid: yoga.uuid, staffer_uuid: staff[0], quantity: 2 },
              { service_uuid: salon.cut.uuid, staffer_uuid: staff[0] },
            ],
          },
        ],
        ...customer("+49 151 40000001"),
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const booking = res.body.bookings[0];
    expect(booking.quantity).toBe(2);
    expect(booking.ordered_services.map((s: { quantity: number }) => s.quantity)).toEqual([2, 1]);
    expect(booking.order.total).toBe(2 * 2000 + salon.cut.price);
    expect((await sessionsOn(date))[0]?.seats_taken).toBe(2);
  });

  it("a cart's quantity above the capacity is 422 on that service's quantity", async () => {
    const res = await salon.ws.api("/bookings/cart", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        items: [
          {
            datetime_start: at("12:00", date),
            services: [{ service_uuid: yoga.uuid, quantity: 6 }],
          },
        ],
        ...customer("+49 151 40000002"),
      },
    });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(["items.0.services.0.quantity"]);
  });

  it("a reservation holds seats; its booking takes exactly them", async () => {
    const held = await pk.api("/reservations", {
      method: "POST",
      headers: { origin: "https://salon.example" },
      body: {
        location_uuid: salon.location.uuid,
        items: [
          {
            datetime_start: at("08:00", date),
            services: [{ service_uuid: yoga.uuid, staffer_uuid: staff[0], quantity: 3 }],
          },
        ],
      },
    });
    expect(held.status, JSON.stringify(held.body)).toBe(201);
    expect(held.body.items[0].services[0].quantity).toBe(3);
    // 2 booked + 3 held: the session is full for anyone else.
    const other = await book(at("08:00", date), yoga.uuid, { staffer: staff[0] });
    expect(other.status).toBe(409);
    expect(other.body.code).toBe("session_full");
    const body = {
      location_uuid: salon.location.uuid,
      service_uuid: yoga.uuid,
      reserved_on: at("08:00", date),
      reservation_uuid: held.body.uuid,
      ...customer("+49 151 40000003"),
    };
    const wrong = await pk.api("/bookings", {
      method: "POST",
      headers: { origin: "https://salon.example" },
      body: { ...body, quantity: 2 },
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors.quantity).toBeDefined();
    const booked = await pk.api("/bookings", {
      method: "POST",
      headers: { origin: "https://salon.example" },
      body: { ...body, quantity: 3 },
    });
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    expect((await sessionsOn(date))[0]?.seats_taken).toBe(5);
    await expectInSync(salon.ws.id, staff);
  });

  it("a series books seats in every occurrence's session", async () => {
    const res = await salon.ws.api("/bookings/series", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        service_uuid: yoga.uuid,
        staffer_uuid: staff[1],
        reserved_on: at("12:00", date),
        quantity: 2,
        recurrence: { rule: "FREQ=DAILY;COUNT=3" },
        ...customer("+49 151 40000004"),
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.bookings.map((b: { quantity: number }) => b.quantity)).toEqual([2, 2, 2]);
    for (const day of [0, 1, 2]) {
      const d = new Date(Date.parse(date) + day * 86_400_000).toISOString().slice(0, 10);
      const sessions = await sessionsOn(d);
      expect(sessions.find((x) => x.start === at("12:00", d))?.seats_taken).toBe(2);
    }
  });

  it("replacing a one-to-one service with a group service opens a session", async () => {
    const cut = await book(at("14:00", date), salon.cut.uuid, { staffer: staff[1] });
    expect(cut.status).toBe(201);
    const replaced = await salon.ws.api(`/bookings/${cut.body.uuid}/services`, {
      method: "PUT",
      body: { service_uuid: yoga.uuid },
    });
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
    const joined = await book(at("14:00", date), yoga.uuid, { staffer: staff[1], quantity: 4 });
    expect(joined.status, JSON.stringify(joined.body)).toBe(201);
    const session = (await sessionsOn(date)).find((x) => x.start === at("14:00", date));
    expect(session?.seats_taken).toBe(5);
    expect(session?.booking_uuids).toEqual([cut.body.uuid, joined.body.uuid].sort());
    await expectInSync(salon.ws.id, staff);
  });

  it("the booking-created event carries the quantity", async () => {
    const res = await book(at("13:00", date), yoga.uuid, { staffer: staff[0], quantity: 4 });
    expect(res.status).toBe(201);
    const row = await everyShard
      .prepare(
        "select payload from events where type = 'booking-created' and json_extract(payload, '$.uuid') = ?",
      )
      .bind(res.body.uuid)
      .first<{ payload: string }>();
    expect(JSON.parse(row?.payload ?? "{}").quantity).toBe(4);
  });

  it("GET /sessions pages through the sessions by start", async () => {
    const from = `${date}T00:00:00Z`;
    const to = new Date(Date.parse(from) + 86_400_000).toISOString();
    const page = await salon.ws.api(
      `/sessions?location_uuid=${salon.location.uuid}&from=${from}&to=${to}&per_page=1&page=2`,
    );
    expect(page.status).toBe(200);
    expect(page.body.meta.total).toBe(4);
    expect(page.body.data).toHaveLength(1);
    expect(page.body.data[0].start).toBe(at("12:00", date));
  });
});

describe("more lifecycle: complete, staffer into a full session, series moves, units under a race", () => {
  const date = monday(9);

  it("completing a group booking charges price × seats once, and keeps its seats", async () => {
    const account = await createAccount(salon.ws, salon.location.uuid, "cash");
    const b = await book(at("08:00", date), yoga.uuid, { staffer: staff[0], quantity: 3 });
    expect(b.status).toBe(201);
    const done = await salon.ws.api(`/bookings/${b.body.uuid}/status/complete`, {
      method: "PUT",
      body: { account_uuid: account.uuid },
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.order).toMatchObject({ total: 6000, amount_paid: 6000 });
    expect((await sessionsOn(date))[0]?.seats_taken).toBe(3);
    await expectInSync(salon.ws.id, staff);
  });

  it("change staffer into a session with too few seats is 409 session_full, nothing moves", async () => {
    const mine = await book(at("10:00", date), yoga.uuid, { staffer: staff[0], quantity: 2 });
    const theirs = await book(at("10:00", date), yoga.uuid, { staffer: staff[1], quantity: 4 });
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    const moved = await salon.ws.api(`/bookings/${mine.body.uuid}/staffer`, {
      method: "PUT",
      body: { staffer_uuid: staff[1] },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(409);
    expect(moved.body.code).toBe("session_full");
    const sessions = (await sessionsOn(date)).filter((x) => x.start === at("10:00", date));
    expect(sessions.map((x) => [x.staffer_uuid, x.seats_taken])).toEqual(
      [
        [staff[0], 2],
        [staff[1], 4],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
    await expectInSync(salon.ws.id, staff);
  });

  it("a series reschedule moves each occurrence's seats to the sessions at the new time", async () => {
    const start = at("12:00", date);
    const series = await salon.ws.api("/bookings/series", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        service_uuid: yoga.uuid,
        staffer_uuid: staff[0],
        reserved_on: start,
        quantity: 2,
        recurrence: { rule: "FREQ=DAILY;COUNT=2" },
        ...customer("+49 151 40000005"),
      },
    });
    expect(series.status, JSON.stringify(series.body)).toBe(201);
    // Another party already in the 13:00 session of the first day: the seats join it.
    const there = await book(at("13:00", date), yoga.uuid, { staffer: staff[0], quantity: 3 });
    expect(there.status).toBe(201);
    const moved = await salon.ws.api(`/series/${series.body.series.uuid}/reschedule`, {
      method: "PUT",
      body: { from_booking_uuid: series.body.bookings[0].uuid, reserved_on: at("13:00", date) },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const first = (await sessionsOn(date)).find((x) => x.start === at("13:00", date));
    expect(first?.seats_taken).toBe(5);
    expect((await sessionsOn(date)).some((x) => x.start === start)).toBe(false);
    await expectInSync(salon.ws.id, staff);
  });

  it("concurrent first bookers of a session needing a two-unit resource share one unit", async () => {
    const mats = await createResource(salon.ws, salon.location.uuid, {
      name: "Mats",
      kind: "equipment",
      quantity: 2,
    });
    const pilates = await service(salon, {
      name: "Pilates",
      duration: 60,
      price: 2500,
      capacity: 6,
      resource_uuids: [mats.uuid],
    });
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        book(at("14:00", date), pilates.uuid, {
          staffer: staff[1],
          phone: `+49 151 5000${String(i).padStart(4, "0")}`,
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    const units = await everyShard
      .prepare(
        "select distinct unit from calendar_entries where resource_id = ? and kind = 'booking'",
      )
      .bind(mats.uuid)
      .all<{ unit: number }>();
    expect(units.results).toHaveLength(1);
    // The other unit is free for another staffer's session at the same start.
    const other = await book(at("14:00", date), pilates.uuid, { staffer: staff[0] });
    expect(other.status, JSON.stringify(other.body)).toBe(201);
    await expectInSync(salon.ws.id, staff);
    await expectUnitsInSync(salon.ws.id, [{ uuid: mats.uuid, quantity: 2 }]);
  });
});

describe("the cart calendar with seats", () => {
  const date = monday(10);
  const cart = (quantity: number) =>
    salon.ws.api(`/locations/${salon.location.uuid}/time-slots/cart`, {
      method: "POST",
      body: {
        services: [{ service_uuid: yoga.uuid, staffer_uuid: staff[0], quantity }],
        range_start: date,
        range_end: date,
      },
    });

  it("fits where the party's seats are left, prices every seat, and refuses more than capacity", async () => {
    // Staffer 0's first start of the day is a session with 2 seats left.
    const first = await book(at("07:00", date), yoga.uuid, { staffer: staff[0], quantity: 3 });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const two = await cart(2);
    expect(two.status, JSON.stringify(two.body)).toBe(200);
    expect(two.body.data[0].dates[0].slot).toMatchObject({ start: "09:00", price: 4000 });
    // Three seats do not fit that session: the first fit is after it.
    const three = await cart(3);
    expect(three.status).toBe(200);
    expect(three.body.data[0].dates[0].slot).toMatchObject({ start: "10:00", price: 6000 });
    const tooMany = await cart(6);
    expect(tooMany.status).toBe(422);
    expect(Object.keys(tooMany.body.errors)).toEqual(["services.0.quantity"]);
  });
});
