import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { calendarFor } from "../../src/calendar/client";
import { expectInSync } from "../helpers/calendar";
import { rowCount } from "../helpers/db";
import { createWorkspace } from "../helpers/factory";
import { d1RoundTrips } from "../helpers/http";
import { createPublishableKey } from "../helpers/keys";
import { at, createSalon, customer, type Salon } from "../helpers/salon";
import { everyShard } from "../helpers/every-shard";

let salon: Salon;
beforeAll(async () => {
  salon = await createSalon(3);
});

const staffer = (i: number) => salon.staffers[i]?.uuid ?? "";

const reserve = (body: Record<string, unknown>, api = salon.ws.api) =>
  api("/reservations", { method: "POST", body: { location_uuid: salon.location.uuid, ...body } });

const one = (start: string, stafferId?: string, serviceId = salon.cut.uuid) => ({
  items: [
    {
      datetime_start: start,
      services: [{ service_uuid: serviceId, ...(stafferId ? { staffer_uuid: stafferId } : {}) }],
    },
  ],
});

const book = (start: string, extra: Record<string, unknown> = {}, api = salon.ws.api) =>
  api("/bookings", {
    method: "POST",
    body: {
      location_uuid: salon.location.uuid,
      service_uuid: salon.cut.uuid,
      reserved_on: start,
      ...customer(),
      ...extra,
    },
  });

const startsOf = async (date: string, stafferId: string) => {
  const res = await salon.ws.api(
    `/locations/${salon.location.uuid}/time-slots?service_uuid=${salon.cut.uuid}&staffer_uuid=${stafferId}&range_start=${date}&range_end=${date}`,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.dates[0]?.slots ?? []).map((s: { start: string }) => s.start) as string[];
};

/**
 * Ages a reservation past its expiry without any request touching it: D1 and
 * the calendar objects as they would be one second after `expires_at`. With
 * `alarm`, each calendar's alarm runs too (as it would at that instant).
 */
async function expire(reservationId: string, stafferIds: string[], alarm = false) {
  const past = Date.now() - 1_000;
  await everyShard.batch([
    everyShard
      .prepare("update reservations set expires_at = ? where id = ?")
      .bind(past, reservationId),
    everyShard
      .prepare("update calendar_entries set expires_at = ? where source_id = ?")
      .bind(past, reservationId),
  ]);
  for (const stafferId of stafferIds) {
    const stub = calendarFor(env, salon.ws.id, stafferId);
    await runInDurableObject(stub, async (_instance, state) => {
      state.storage.sql.exec(
        "UPDATE entries SET expires_ms = ? WHERE source_id = ?",
        past,
        reservationId,
      );
      if (alarm) await state.storage.setAlarm(Date.now());
    });
    if (alarm) await runDurableObjectAlarm(stub);
  }
}

const heldRowsInCalendar = async (stafferId: string, reservationId: string) =>
  runInDurableObject(
    calendarFor(env, salon.ws.id, stafferId),
    (_instance, state) =>
      state.storage.sql.exec("SELECT id FROM entries WHERE source_id = ?", reservationId).toArray()
        .length,
  );

describe("POST /reservations", () => {
  it("holds the time: hidden from search, 409 with alternatives for others, bookable by the holder", async () => {
    const date = "2030-03-11";
    const start = at("09:00", date);
    const res = await reserve({ ...one(start, staffer(0)), ttl_seconds: 300 });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(d1RoundTrips(res.headers)).toBeLessThanOrEqual(3);
    const expiresIn = Date.parse(res.body.expires_at) - Date.now();
    expect(expiresIn).toBeGreaterThan(298_000);
    expect(expiresIn).toBeLessThanOrEqual(300_000);
    expect(res.body).toEqual({
      uuid: expect.any(String),
      location_uuid: salon.location.uuid,
      expires_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      held_by: "secret",
      items: [
        {
          datetime_start: start,
          services: [
            {
              service_uuid: salon.cut.uuid,
              staffer_uuid: staffer(0),
              starts_at: start,
              ends_at: at("09:45", date),
              resource_uuids: [],
              quantity: 1,
            },
          ],
        },
      ],
      payment: null,
      checkout: null,
    });
    const reservation = res.body.uuid as string;

    // 09:00Z is 10:00 in Berlin: the staffer's starts overlapping 10:00–11:00 local (cut 45 +
    // buffer 15) are gone from another client's search.
    const starts = await startsOf(date, staffer(0));
    expect(starts).toContain("09:00");
    for (const gone of ["09:15", "10:00", "10:45"]) expect(starts).not.toContain(gone);
    expect(starts).toContain("11:00");

    const taken = await book(start, { staffer_uuid: staffer(0) });
    expect(taken.status, JSON.stringify(taken.body)).toBe(409);
    expect(taken.body.code).toBe("slot_unavailable");
    // Nearest first (ties: earlier first), the same staffer as asked.
    expect(taken.body.alternatives).toEqual(
      ["08:00", "10:00", "10:15", "10:30", "10:45"].map((t) => ({
        start: at(t, date),
        staffer_uuid: staffer(0),
      })),
    );

    // The holder books it: same time and staffer, the reservation is used up in the same write.
    const booked = await book(start, { reservation_uuid: reservation });
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    // The reservation rides in the booking's read batch: auth, one read, one write.
    expect(d1RoundTrips(booked.headers)).toBeLessThanOrEqual(3);
    expect(booked.body.ordered_services[0]).toMatchObject({ staffer_uuid: staffer(0) });
    expect((await salon.ws.api(`/reservations/${reservation}`)).status).toBe(404);
    const again = await book(start, { reservation_uuid: reservation });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("reservation_expired");
    const rows = await everyShard
      .prepare("select kind from calendar_entries where source_id = ?")
      .bind(reservation)
      .all();
    expect(rows.results).toEqual([]);
    await expectInSync(salon.ws.id, [staffer(0)]);
  });
});

describe("expiry and release", () => {
  it("frees the time at expires_at with no request touching the reservation, alarm or not", async () => {
    const date = "2030-03-12";
    const start = at("09:00", date);
    const res = await reserve(one(start, staffer(1)));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.uuid as string;
    expect((await salon.ws.api(`/reservations/${id}`)).status).toBe(200);

    // Expired, and no alarm has run yet: every answer already treats the time as free.
    await expire(id, [staffer(1)]);
    expect(await heldRowsInCalendar(staffer(1), id)).toBe(1);
    expect((await salon.ws.api(`/reservations/${id}`)).status).toBe(404);
    expect(await startsOf(date, staffer(1))).toContain("10:00");
    await expectInSync(salon.ws.id, [staffer(1)]);
    const used = await book(start, { reservation_uuid: id });
    expect(used.status).toBe(409);
    expect(used.body.code).toBe("reservation_expired");
    const other = await book(start, { staffer_uuid: staffer(1) });
    expect(other.status, JSON.stringify(other.body)).toBe(201);
    await expectInSync(salon.ws.id, [staffer(1)]);
  });

  it("the calendar object drops an expired hold itself when its alarm runs", async () => {
    const date = "2030-03-13";
    const res = await reserve(one(at("09:00", date), staffer(1)));
    expect(res.status).toBe(201);
    const id = res.body.uuid as string;
    await expire(id, [staffer(1)], true);
    expect(await heldRowsInCalendar(staffer(1), id)).toBe(0);
    await expectInSync(salon.ws.id, [staffer(1)]);
    expect((await book(at("09:00", date), { staffer_uuid: staffer(1) })).status).toBe(201);
  });

  it("DELETE frees the time at once; a deleted reservation is 404 and cannot be booked", async () => {
    const date = "2030-03-14";
    const start = at("09:00", date);
    const res = await reserve(one(start, staffer(2)));
    const id = res.body.uuid as string;
    expect(await startsOf(date, staffer(2))).not.toContain("10:00");
    const del = await salon.ws.api(`/reservations/${id}`, { method: "DELETE" });
    expect(del.status, JSON.stringify(del.body)).toBe(204);
    expect(await startsOf(date, staffer(2))).toContain("10:00");
    expect(await heldRowsInCalendar(staffer(2), id)).toBe(0);
    expect((await salon.ws.api(`/reservations/${id}`, { method: "DELETE" })).status).toBe(404);
    expect((await salon.ws.api(`/reservations/${id}`)).status).toBe(404);
    const late = await book(start, { reservation_uuid: id });
    expect(late.status).toBe(409);
    expect(late.body.code).toBe("reservation_expired");
    expect((await book(start, { staffer_uuid: staffer(2) })).status).toBe(201);
    await expectInSync(salon.ws.id, [staffer(2)]);
  });
});

describe("what else held time refuses", () => {
  it("another reservation, a cart, a reschedule onto it and a blocked spot over it: 409 slot_unavailable", async () => {
    const date = "2030-03-15";
    const start = at("09:00", date);
    const held = await reserve(one(start, staffer(0)));
    expect(held.status).toBe(201);

    const [reservationsBefore, entriesBefore] = [
      await rowCount("reservations", salon.ws.id),
      await rowCount("calendar_entries", salon.ws.id),
    ];
    const second = await reserve(one(at("09:30", date), staffer(0)));
    expect(second.status).toBe(409);
    // Refused: no reservation row, no held time left behind.
    expect(await rowCount("reservations", salon.ws.id)).toBe(reservationsBefore);
    expect(await rowCount("calendar_entries", salon.ws.id)).toBe(entriesBefore);
    expect(second.body.code).toBe("slot_unavailable");
    expect(second.body.alternatives.length).toBeGreaterThan(0);

    const cart = await salon.ws.api("/bookings/cart", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        items: one(at("09:15", date), staffer(0)).items,
        ...customer(),
      },
    });
    expect(cart.status).toBe(409);
    expect(cart.body.code).toBe("slot_unavailable");

    const elsewhere = await book(at("12:00", date), { staffer_uuid: staffer(0) });
    expect(elsewhere.status).toBe(201);
    const moved = await salon.ws.api(`/bookings/${elsewhere.body.uuid}/reschedule`, {
      method: "PUT",
      body: { reserved_on: at("09:30", date) },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(409);
    expect(moved.body.code).toBe("slot_unavailable");

    const blocked = await salon.ws.api(`/staffers/${staffer(0)}/blocked-spots`, {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        starts_at: at("08:00", date),
        ends_at: at("11:00", date),
      },
    });
    expect(blocked.status, JSON.stringify(blocked.body)).toBe(409);
    expect(blocked.body.code).toBe("slot_unavailable");
    await expectInSync(salon.ws.id, [staffer(0)]);
  });
});

describe("booking with reservation_uuid", () => {
  it("422 when the body asks for another time, service, staffer or location, with nothing written", async () => {
    const date = "2030-03-18";
    const start = at("09:00", date);
    const res = await reserve(one(start, staffer(0)));
    const id = res.body.uuid as string;
    const bookingsBefore = await rowCount("bookings", salon.ws.id);
    const cases: [Record<string, unknown>, string][] = [
      [{ reserved_on: at("09:15", date) }, "reserved_on"],
      [{ service_uuid: salon.colour.uuid }, "service_uuid"],
      [{ staffer_uuid: staffer(1) }, "staffer_uuid"],
    ];
    for (const [change, field] of cases) {
      const wrong = await book(start, { reservation_uuid: id, ...change });
      expect(wrong.status, JSON.stringify(wrong.body)).toBe(422);
      expect(Object.keys(wrong.body.errors)).toContain(field);
    }
    const cart = await salon.ws.api("/bookings/cart", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        reservation_uuid: id,
        items: [...one(start).items, ...one(at("12:00", date)).items],
        ...customer(),
      },
    });
    expect(cart.status).toBe(422);
    expect(Object.keys(cart.body.errors)).toContain("items");
    expect(await rowCount("bookings", salon.ws.id)).toBe(bookingsBefore);
    // Still held, still bookable by its holder.
    expect((await salon.ws.api(`/reservations/${id}`)).status).toBe(200);
    expect((await book(start, { reservation_uuid: id })).status).toBe(201);
    await expectInSync(salon.ws.id, [staffer(0)]);
  });

  it("a cart-shaped reservation with auto-allocated staffers books as the cart it holds", async () => {
    const date = "2030-03-19";
    const items = [
      {
        datetime_start: at("09:00", date),
        services: [{ service_uuid: salon.cut.uuid }, { service_uuid: salon.colour.uuid }],
      },
      { datetime_start: at("13:00", date), services: [{ service_uuid: salon.cut.uuid }] },
    ];
    const res = await reserve({ items });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const held = res.body.items as {
      services: { staffer_uuid: string; starts_at: string; ends_at: string }[];
    }[];
    expect(held.map((i) => i.services.map((s) => s.starts_at))).toEqual([
      // The colouring starts after the cut's 45 minutes and its 15-minute buffer.
      [at("09:00", date), at("10:00", date)],
      [at("13:00", date)],
    ]);
    const staffIds = salon.staffers.map((s) => s.uuid);
    for (const s of held.flatMap((i) => i.services)) expect(staffIds).toContain(s.staffer_uuid);

    const cart = await salon.ws.api("/bookings/cart", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        reservation_uuid: res.body.uuid,
        items,
        ...customer(),
      },
    });
    expect(cart.status, JSON.stringify(cart.body)).toBe(201);
    const booked = cart.body.bookings.map(
      (b: { ordered_services: { staffer_uuid: string; reserved_on: string }[] }) =>
        b.ordered_services.map((s) => [s.staffer_uuid, s.reserved_on]),
    );
    expect(booked.flat()).toEqual(
      held.flatMap((i) => i.services.map((s) => [s.staffer_uuid, s.starts_at])),
    );
    await expectInSync(salon.ws.id, staffIds);
  });

  it("another workspace's reservation is not found (404 on GET and DELETE, 422 as a booking's reservation_uuid)", async () => {
    const date = "2030-03-20";
    const res = await reserve(one(at("09:00", date), staffer(0)));
    const id = res.body.uuid as string;
    const other = await createWorkspace();
    expect((await other.api(`/reservations/${id}`)).status).toBe(404);
    expect((await other.api(`/reservations/${id}`, { method: "DELETE" })).status).toBe(404);
    const foreign = await other.api("/bookings", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        service_uuid: salon.cut.uuid,
        reserved_on: at("09:00", date),
        reservation_uuid: id,
        ...customer(),
      },
    });
    expect(foreign.status).toBe(422);
    expect(Object.keys(foreign.body.errors)).toContain("reservation_uuid");
    expect((await salon.ws.api(`/reservations/${id}`)).status).toBe(200);
  });
});

describe("limits", () => {
  it("ttl_seconds: 59 and 901 are 422, 60 and 900 hold", async () => {
    const date = "2030-03-21";
    for (const [ttl, status] of [
      [59, 422],
      [60, 201],
      [900, 201],
      [901, 422],
    ] as const) {
      const res = await reserve({ ...one(at("09:00", date)), ttl_seconds: ttl });
      expect(res.status, `${ttl}: ${JSON.stringify(res.body)}`).toBe(status);
      if (status === 422) expect(Object.keys(res.body.errors)).toContain("ttl_seconds");
      else expect(Date.parse(res.body.expires_at) - Date.now()).toBeGreaterThan((ttl - 2) * 1000);
    }
  });

  it("10 items of 10 services hold in one write; 11 items or 11 services are 422 with nothing held", async () => {
    const short = await salon.ws.api("/services", {
      method: "POST",
      body: { name: "Quick look", duration: 10, price: 500 },
    });
    expect(short.status).toBe(201);
    const days = ["2030-04-01", "2030-04-02", "2030-04-03", "2030-04-04", "2030-04-05"];
    const item = (date: string, hhmm: string, services = 10) => ({
      datetime_start: at(hhmm, date),
      services: Array.from({ length: services }, () => ({ service_uuid: short.body.uuid })),
    });
    const max = days.flatMap((d) => [item(d, "08:00"), item(d, "12:00")]);
    const entriesBefore = await rowCount("calendar_entries", salon.ws.id);
    const res = await reserve({ items: max });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.items.flatMap((i: { services: unknown[] }) => i.services)).toHaveLength(100);
    expect(await rowCount("calendar_entries", salon.ws.id)).toBe(entriesBefore + 100);

    const reservationsBefore = await rowCount("reservations", salon.ws.id);
    const tooMany = await reserve({ items: [...max, item("2030-04-08", "08:00")] });
    expect(tooMany.status).toBe(422);
    expect(Object.keys(tooMany.body.errors)).toContain("items");
    const tooLong = await reserve({ items: [item("2030-04-08", "08:00", 11)] });
    expect(tooLong.status).toBe(422);
    expect(Object.keys(tooLong.body.errors)).toContain("items.0.services");
    expect(await rowCount("reservations", salon.ws.id)).toBe(reservationsBefore);

    // The holder books all 100 services from the reservation in one cart.
    const cart = await salon.ws.api("/bookings/cart", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        reservation_uuid: res.body.uuid,
        items: max,
        ...customer(),
      },
    });
    expect(cart.status, JSON.stringify(cart.body)).toBe(201);
    expect(cart.body.bookings).toHaveLength(10);
    await expectInSync(
      salon.ws.id,
      salon.staffers.map((s) => s.uuid),
    );
  });
});

describe("widget use", () => {
  it("a publishable key holds, reads, books and deletes reservations", async () => {
    const pk = await createPublishableKey(salon.ws);
    const origin = { origin: pk.allowedOrigins[0] ?? "" };
    const date = "2030-03-22";
    const start = at("09:00", date);
    const res = await pk.api("/reservations", {
      method: "POST",
      headers: origin,
      body: { location_uuid: salon.location.uuid, ...one(start) },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect((await pk.api(`/reservations/${res.body.uuid}`, { headers: origin })).status).toBe(200);
    const booked = await pk.api("/bookings", {
      method: "POST",
      headers: origin,
      body: {
        location_uuid: salon.location.uuid,
        service_uuid: salon.cut.uuid,
        reserved_on: start,
        reservation_uuid: res.body.uuid,
        ...customer(),
      },
    });
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    const other = await pk.api("/reservations", {
      method: "POST",
      headers: origin,
      body: { location_uuid: salon.location.uuid, ...one(at("12:00", date)) },
    });
    expect(other.status).toBe(201);
    const del = await pk.api(`/reservations/${other.body.uuid}`, {
      method: "DELETE",
      headers: origin,
    });
    expect(del.status).toBe(204);
  });

  it("cart search does not offer held time either, and a body for another location is 422", async () => {
    const date = "2030-03-25";
    const solo = await salon.ws.api(`/locations/${salon.location.uuid}/time-slots/cart`, {
      method: "POST",
      body: {
        services: [{ service_uuid: salon.cut.uuid, staffer_uuid: staffer(2) }],
        range_start: date,
        range_end: date,
      },
    });
    expect(solo.status, JSON.stringify(solo.body)).toBe(200);
    expect(solo.body.data[0].dates[0].slot.start).toBe("09:00");
    // Hold the staffer's whole morning (08:00Z-11:00Z is 09:00–12:00 Berlin).
    const items = ["08:00", "09:00", "10:00"].map((t) => ({
      datetime_start: at(t, date),
      services: [{ service_uuid: salon.cut.uuid, staffer_uuid: staffer(2) }],
    }));
    const res = await reserve({ items });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const after = await salon.ws.api(`/locations/${salon.location.uuid}/time-slots/cart`, {
      method: "POST",
      body: {
        services: [{ service_uuid: salon.cut.uuid, staffer_uuid: staffer(2) }],
        range_start: date,
        range_end: date,
      },
    });
    expect(after.body.data[0].dates[0].slot.start).toBe("12:00");

    const wrong = await salon.ws.api("/bookings/cart", {
      method: "POST",
      body: {
        location_uuid: crypto.randomUUID(),
        reservation_uuid: res.body.uuid,
        items,
        ...customer(),
      },
    });
    expect(wrong.status).toBe(422);
    expect(Object.keys(wrong.body.errors)).toContain("location_uuid");
  });
});
