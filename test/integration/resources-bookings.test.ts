import { beforeAll, describe, expect, it } from "vitest";
import { expectInSync, expectUnitsInSync, unitOverlaps } from "../helpers/calendar";
import { createLocation, createStaffer, WEEKDAYS_9_TO_18 } from "../helpers/factory";
import { admin } from "../helpers/http";
import { createResource, type TestResource } from "../helpers/resources";
import { createAccount } from "../helpers/shop";
import { at, createSalon, customer, type Salon } from "../helpers/salon";
import { everyShard } from "../helpers/every-shard";

/**
 * Services that need a room: every booking operation takes one unit of it
 * for the service's time and buffer, and a staffer being free is not enough.
 */
let salon: Salon;
/** One treatment room (one unit) shared by all three staffers. */
let room: TestResource;
/** Two basins. */
let basins: TestResource;
/** 45 minutes + 15 minutes buffer, needs the room. */
let massage: { uuid: string };
/** 30 minutes, needs a basin. */
let wash: { uuid: string };
let staff: string[];

// Each test works on its own Monday (Berlin is UTC+2 from April: 10:00Z is 12:00 local).
const monday = (week: number) =>
  new Date(Date.parse("2030-04-01T00:00:00Z") + week * 7 * 86_400_000).toISOString().slice(0, 10);

async function service(body: Record<string, unknown>) {
  const res = await salon.ws.api("/services", { method: "POST", body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { uuid: string; resource_uuids: string[] };
}

beforeAll(async () => {
  salon = await createSalon(3);
  staff = salon.staffers.map((s) => s.uuid);
  room = await createResource(salon.ws, salon.location.uuid, { name: "Room", kind: "room" });
  basins = await createResource(salon.ws, salon.location.uuid, {
    name: "Basin",
    kind: "chair",
    quantity: 2,
  });
  massage = await service({
    name: "Massage",
    duration: 45,
    price: 6000,
    is_pause: true,
    pause: 15,
    resource_uuids: [room.uuid],
  });
  wash = await service({ name: "Wash", duration: 30, price: 1500, resource_uuids: [basins.uuid] });
});

const book = (start: string, serviceId: string, stafferId?: string) =>
  salon.ws.api("/bookings", {
    method: "POST",
    body: {
      location_uuid: salon.location.uuid,
      service_uuid: serviceId,
      reserved_on: start,
      ...(stafferId ? { staffer_uuid: stafferId } : {}),
      ...customer(),
    },
  });

async function slotsOn(date: string, serviceId: string) {
  const res = await salon.ws.api(
    `/locations/${salon.location.uuid}/time-slots?service_uuid=${serviceId}&range_start=${date}&range_end=${date}`,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const slots = res.body.dates[0].slots as { start: string; quantity: number }[];
  return new Map(slots.map((s) => [s.start, s.quantity]));
}

describe("a room shared by staffers", () => {
  it("books the room with the staffer and lists it on the booking", async () => {
    const date = monday(0);
    const res = await book(at("10:00", date), massage.uuid, staff[0]);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.ordered_services[0].resource_uuids).toEqual([room.uuid]);
    const read = await salon.ws.api(`/bookings/${res.body.uuid}`);
    expect(read.body.ordered_services[0].resource_uuids).toEqual([room.uuid]);
    await expectUnitsInSync(salon.ws.id, [room]);
  });

  it("refuses a second booking at the same time with 409 although a staffer is free", async () => {
    const date = monday(1);
    expect((await book(at("10:00", date), massage.uuid, staff[0])).status).toBe(201);
    const second = await book(at("10:00", date), massage.uuid, staff[1]);
    expect(second.status, JSON.stringify(second.body)).toBe(409);
    expect(second.body.code).toBe("slot_unavailable");
    // Auto-allocation finds free staffers but no room either.
    expect((await book(at("10:00", date), massage.uuid)).status).toBe(409);
    // The room is busy for the buffer too: 45 + 15 minutes.
    expect((await book(at("10:45", date), massage.uuid, staff[1])).status).toBe(409);
    expect((await book(at("11:00", date), massage.uuid, staff[1])).status).toBe(201);
    // Services without the room are unaffected.
    expect((await book(at("10:00", date), salon.cut.uuid, staff[1])).status).toBe(201);
    expect(await unitOverlaps(salon.ws.id)).toEqual([]);
    await expectUnitsInSync(salon.ws.id, [room]);
  });

  it("lists slots by bookings still possible: free staffers capped by free units", async () => {
    const date = monday(2);
    // 10:00Z is 12:00 in Berlin.
    expect((await slotsOn(date, massage.uuid)).get("12:00")).toBe(1);
    expect((await slotsOn(date, wash.uuid)).get("12:00")).toBe(2);
    expect((await book(at("10:00", date), wash.uuid, staff[0])).status).toBe(201);
    expect((await slotsOn(date, wash.uuid)).get("12:00")).toBe(1);
    expect((await book(at("10:00", date), wash.uuid, staff[1])).status).toBe(201);
    const after = await slotsOn(date, wash.uuid);
    expect(after.has("12:00")).toBe(false);
    // Staffer 2 is free, but both basins are taken.
    expect((await book(at("10:00", date), wash.uuid, staff[2])).status).toBe(409);
    // The washes end at 12:30: three staffers free again, two basins.
    expect(after.get("12:30")).toBe(2);
    // A wash from 11:45 would run into both of them.
    expect(after.has("11:45")).toBe(false);
    expect(after.get("11:30")).toBe(2);
    expect((await slotsOn(date, massage.uuid)).get("12:00")).toBe(1);
    expect(await unitOverlaps(salon.ws.id)).toEqual([]);
    await expectUnitsInSync(salon.ws.id, [basins]);
  });

  it("a location without the resource cannot book the service (422)", async () => {
    const elsewhere = await createLocation(salon.ws, { timezone: "Europe/Berlin" });
    const nomad = await createStaffer(salon.ws, [elsewhere.uuid], {
      first_name: "Nomad",
      schedule: WEEKDAYS_9_TO_18(elsewhere.uuid),
    });
    const res = await salon.ws.api("/bookings", {
      method: "POST",
      body: {
        location_uuid: elsewhere.uuid,
        service_uuid: massage.uuid,
        staffer_uuid: nomad.uuid,
        reserved_on: at("10:00", monday(3)),
        ...customer(),
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(["service_uuid"]);
    const slots = await salon.ws.api(
      `/locations/${elsewhere.uuid}/time-slots?service_uuid=${massage.uuid}&range_start=${monday(3)}&range_end=${monday(3)}`,
    );
    if (slots.status === 200) expect(slots.body.dates[0].slots).toEqual([]);
    else expect(slots.status).toBe(422);
  });
});

describe("carts and cart search", () => {
  it("books two room services back to back in one cart, and refuses a third at once", async () => {
    const date = monday(4);
    const res = await salon.ws.api("/bookings/cart", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        items: [
          {
            datetime_start: at("09:00", date),
            services: [
              { service_uuid: massage.uuid, staffer_uuid: staff[0] },
              { service_uuid: massage.uuid, staffer_uuid: staff[1] },
            ],
          },
        ],
        ...customer(),
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const services = res.body.bookings[0].ordered_services;
    expect(services.map((s: { resource_uuids: string[] }) => s.resource_uuids)).toEqual([
      [room.uuid],
      [room.uuid],
    ]);
    // Two items at the same start would need the one room twice.
    const twice = await salon.ws.api("/bookings/cart", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        items: [
          { datetime_start: at("13:00", date), services: [{ service_uuid: massage.uuid }] },
          { datetime_start: at("13:00", date), services: [{ service_uuid: massage.uuid }] },
        ],
        ...customer(),
      },
    });
    expect(twice.status, JSON.stringify(twice.body)).toBe(409);
    expect(await unitOverlaps(salon.ws.id)).toEqual([]);
    await expectUnitsInSync(salon.ws.id, [room]);
  });

  it("cart calendar skips a day whose room is blocked all day", async () => {
    const date = monday(5);
    const next = new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    const block = await admin(`/workspaces/${salon.ws.id}/resources/${room.uuid}/blocked-spots`, {
      method: "POST",
      body: { starts_at: `${date}T00:00:00Z`, ends_at: `${date}T23:59:00Z`, comment: "Repairs" },
    });
    expect(block.status, JSON.stringify(block.body)).toBe(201);
    const calendar = await salon.ws.api(`/locations/${salon.location.uuid}/time-slots/cart`, {
      method: "POST",
      body: { services: [{ service_uuid: massage.uuid }], range_start: date, range_end: next },
    });
    expect(calendar.status, JSON.stringify(calendar.body)).toBe(200);
    expect(calendar.body.data[0].dates.map((d: { date: string }) => d.date)).toEqual([next]);
    expect((await slotsOn(date, massage.uuid)).size).toBe(0);
    expect((await book(at("10:00", date), massage.uuid, staff[0])).status).toBe(409);
    // The wash does not need the room.
    expect((await slotsOn(date, wash.uuid)).size).toBeGreaterThan(0);
    await expectUnitsInSync(salon.ws.id, [room]);
  });
});

describe("changes to a booking that holds a room", () => {
  it("reschedule takes the room at the new time and frees the old one", async () => {
    const date = monday(6);
    const first = await book(at("09:00", date), massage.uuid, staff[0]);
    expect((await book(at("12:00", date), massage.uuid, staff[1])).status).toBe(201);
    const path = `/bookings/${first.body.uuid}/reschedule`;
    const onto = await salon.ws.api(path, {
      method: "PUT",
      body: { reserved_on: at("12:00", date) },
    });
    expect(onto.status, JSON.stringify(onto.body)).toBe(409);
    // The alternatives offered are times the room is free too.
    for (const alt of onto.body.alternatives ?? []) {
      expect(alt.start).not.toBe(at("12:00", date));
    }
    const moved = await salon.ws.api(path, {
      method: "PUT",
      body: { reserved_on: at("14:00", date) },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.ordered_services[0].resource_uuids).toEqual([room.uuid]);
    // The old time is the room's again.
    expect((await book(at("09:00", date), massage.uuid, staff[2])).status).toBe(201);
    expect((await book(at("14:00", date), massage.uuid, staff[2])).status).toBe(409);
    expect(await unitOverlaps(salon.ws.id)).toEqual([]);
    await expectUnitsInSync(salon.ws.id, [room]);
  });

  it("change staffer keeps the room; cancel frees it", async () => {
    const date = monday(7);
    const booked = await book(at("10:00", date), massage.uuid, staff[0]);
    const changed = await salon.ws.api(`/bookings/${booked.body.uuid}/staffer`, {
      method: "PUT",
      body: { staffer_uuid: staff[1] },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.ordered_services[0]).toMatchObject({
      staffer_uuid: staff[1],
      resource_uuids: [room.uuid],
    });
    // Staffer 0 is free again, the room is not.
    expect((await book(at("10:00", date), massage.uuid, staff[0])).status).toBe(409);
    await expectUnitsInSync(salon.ws.id, [room]);
    await expectInSync(salon.ws.id, staff);
    const canceled = await salon.ws.api(`/bookings/${booked.body.uuid}/status/cancel`, {
      method: "PUT",
      body: {},
    });
    expect(canceled.status, JSON.stringify(canceled.body)).toBe(200);
    expect((await book(at("10:00", date), massage.uuid, staff[0])).status).toBe(201);
    await expectUnitsInSync(salon.ws.id, [room]);
  });

  it("replace service takes the new service's room, or answers 409 when it is taken", async () => {
    const date = monday(8);
    expect((await book(at("10:00", date), massage.uuid, staff[0])).status).toBe(201);
    const simple = await book(at("10:00", date), salon.cut.uuid, staff[1]);
    const path = `/bookings/${simple.body.uuid}/services`;
    const taken = await salon.ws.api(path, { method: "PUT", body: { service_uuid: massage.uuid } });
    expect(taken.status, JSON.stringify(taken.body)).toBe(409);
    expect(taken.body.code).toBe("slot_unavailable");

    const later = await book(at("13:00", date), salon.cut.uuid, staff[1]);
    const swapped = await salon.ws.api(`/bookings/${later.body.uuid}/services`, {
      method: "PUT",
      body: { service_uuid: massage.uuid },
    });
    expect(swapped.status, JSON.stringify(swapped.body)).toBe(200);
    expect(swapped.body.ordered_services[0].resource_uuids).toEqual([room.uuid]);
    expect((await book(at("13:00", date), massage.uuid, staff[2])).status).toBe(409);
    // And back: the room is free again.
    const back = await salon.ws.api(`/bookings/${later.body.uuid}/services`, {
      method: "PUT",
      body: { service_uuid: salon.cut.uuid },
    });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body.ordered_services[0].resource_uuids).toEqual([]);
    expect((await book(at("13:00", date), massage.uuid, staff[2])).status).toBe(201);
    await expectUnitsInSync(salon.ws.id, [room]);
  });
});

describe("the rest of a room booking's life", () => {
  it("status, notes and completion keep the room listed and busy", async () => {
    const date = monday(13);
    const booked = await book(at("10:00", date), massage.uuid, staff[0]);
    expect(booked.status).toBe(201);
    const path = `/bookings/${booked.body.uuid}`;
    const statuses = await salon.ws.api("/booking-statuses");
    const confirmed = statuses.body.data.find((s: { type: string }) => s.type === "confirmed");
    const status = await salon.ws.api(`${path}/status`, {
      method: "PUT",
      body: { status_uuid: confirmed.uuid },
    });
    expect(status.status, JSON.stringify(status.body)).toBe(200);
    expect(status.body.ordered_services[0].resource_uuids).toEqual([room.uuid]);
    const notes = await salon.ws.api(`${path}/public_notes`, {
      method: "POST",
      body: { value: "Warm towels" },
    });
    expect(notes.body.ordered_services[0].resource_uuids).toEqual([room.uuid]);
    const till = await createAccount(salon.ws, salon.location.uuid, "cash");
    const done = await salon.ws.api(`${path}/status/complete`, {
      method: "PUT",
      body: { account_uuid: till.uuid },
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.ordered_services[0].resource_uuids).toEqual([room.uuid]);
    // A completed booking's time stays taken, the room's too.
    expect((await book(at("10:00", date), massage.uuid, staff[1])).status).toBe(409);
    await expectUnitsInSync(salon.ws.id, [room]);
  });
});

describe("reservations hold the room", () => {
  it("holds, books with, and releases the room", async () => {
    const date = monday(9);
    const reserve = (start: string) =>
      salon.ws.api("/reservations", {
        method: "POST",
        body: {
          location_uuid: salon.location.uuid,
          items: [{ datetime_start: start, services: [{ service_uuid: massage.uuid }] }],
        },
      });
    const held = await reserve(at("10:00", date));
    expect(held.status, JSON.stringify(held.body)).toBe(201);
    expect(held.body.items[0].services[0].resource_uuids).toEqual([room.uuid]);
    const stafferHeld = held.body.items[0].services[0].staffer_uuid;
    const other = staff.find((s) => s !== stafferHeld);
    // Another staffer is free, the room is held.
    expect((await book(at("10:00", date), massage.uuid, other)).status).toBe(409);
    const booked = await salon.ws.api("/bookings", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        service_uuid: massage.uuid,
        reserved_on: at("10:00", date),
        reservation_uuid: held.body.uuid,
        ...customer(),
      },
    });
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    expect(booked.body.ordered_services[0].resource_uuids).toEqual([room.uuid]);
    await expectUnitsInSync(salon.ws.id, [room]);

    const released = await reserve(at("13:00", date));
    expect(released.status).toBe(201);
    const del = await salon.ws.api(`/reservations/${released.body.uuid}`, { method: "DELETE" });
    expect(del.status).toBe(204);
    expect((await book(at("13:00", date), massage.uuid, other)).status).toBe(201);
    expect(await unitOverlaps(salon.ws.id)).toEqual([]);
    await expectUnitsInSync(salon.ws.id, [room]);
  });
});

describe("bookings for one room started together", () => {
  it("gives each unit to one booking: two basins, six requests, two bookings", async () => {
    const date = monday(10);
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => book(at("10:00", date), wash.uuid, staff[i % 3])),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(2);
    expect(statuses.filter((s) => s !== 201).every((s) => s === 409)).toBe(true);
    const units = await everyShard
      .prepare(
        `select unit from calendar_entries where resource_id = ? and starts_at = ? order by unit`,
      )
      .bind(basins.uuid, Date.parse(at("10:00", date)))
      .all<{ unit: number }>();
    expect(units.results.map((r) => r.unit)).toEqual([1, 2]);
    expect(await unitOverlaps(salon.ws.id)).toEqual([]);
    await expectUnitsInSync(salon.ws.id, [basins]);
    await expectInSync(salon.ws.id, staff);
  });

  it("two reschedules onto the same start share the two basins instead of refusing one", async () => {
    const date = monday(12);
    const a = await book(at("08:00", date), wash.uuid, staff[0]);
    const b = await book(at("09:00", date), wash.uuid, staff[1]);
    const [ra, rb] = await Promise.all(
      [a, b].map((r) =>
        salon.ws.api(`/bookings/${r.body.uuid}/reschedule`, {
          method: "PUT",
          body: { reserved_on: at("13:00", date) },
        }),
      ),
    );
    expect([ra?.status, rb?.status], JSON.stringify([ra?.body, rb?.body])).toEqual([200, 200]);
    const units = await everyShard
      .prepare(
        `select unit from calendar_entries where resource_id = ? and starts_at = ? order by unit`,
      )
      .bind(basins.uuid, Date.parse(at("13:00", date)))
      .all<{ unit: number }>();
    expect(units.results.map((r) => r.unit)).toEqual([1, 2]);
    expect(await unitOverlaps(salon.ws.id)).toEqual([]);
    await expectUnitsInSync(salon.ws.id, [basins]);
  });

  it("one room, three staffers, all at once: exactly one booking", async () => {
    const date = monday(11);
    const results = await Promise.all(staff.map((s) => book(at("10:00", date), massage.uuid, s)));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    expect(await unitOverlaps(salon.ws.id)).toEqual([]);
    await expectUnitsInSync(salon.ws.id, [room]);
  });
});
