import { beforeAll, expect } from "vitest";
import { unitCalendarId } from "../../src/calendar/ids";
import { expectInSync, expectUnitsInSync, expireHolds, unitOverlaps } from "../helpers/calendar";
import { countOf, faultSuite, weekdays, type FaultyWrite } from "../helpers/faults";
import { admin } from "../helpers/http";
import { createResource, type TestResource } from "../helpers/resources";
import { at, createSalon, customer, type Salon } from "../helpers/salon";

/**
 * The fault suite (test/helpers/faults.ts) over writes that take a room. The
 * room's unit calendar is claimed, settled and released with the staffers':
 * no second booking ever gets the room, and once the alarms ran it equals D1.
 */
let salon: Salon;
let staff: string[];
let room: TestResource;
let massage: { uuid: string };

beforeAll(async () => {
  salon = await createSalon(3);
  staff = salon.staffers.map((s) => s.uuid);
  room = await createResource(salon.ws, salon.location.uuid, { name: "Room", kind: "room" });
  const res = await salon.ws.api("/services", {
    method: "POST",
    body: { name: "Massage", duration: 60, price: 6000, resource_uuids: [room.uuid] },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  massage = res.body;
});

const nextDate = weekdays("2032-07-05");

interface Ctx {
  date: string;
  booking?: string;
}
/** A time of the write's day. */
type Slot = string;

const book = (date: string, hhmm: string, stafferId: string, serviceId = massage.uuid) =>
  salon.ws.api("/bookings", {
    method: "POST",
    body: {
      location_uuid: salon.location.uuid,
      service_uuid: serviceId,
      staffer_uuid: stafferId,
      reserved_on: at(hhmm, date),
      ...customer("+49 151 61000000"),
    },
  });

/** A fresh day to write on. */
const freshDay = async (): Promise<Ctx> => ({ date: nextDate() });

/** A fresh day with a room booking at 10:00 with the first staffer to act on. */
async function booked(): Promise<Ctx> {
  const date = nextDate();
  const res = await book(date, "10:00", staff[0] ?? "");
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  await expectUnitsInSync(salon.ws.id, [room]);
  return { date, booking: res.body.uuid };
}

/** Another staffer asks for the room at that time: refused while it is busy, booked once free. */
const probe = async (ctx: Ctx, hhmm: Slot) => (await book(ctx.date, hhmm, staff[2] ?? "")).status;

/** The booking acted on still has the room at 10:00. */
async function keepsTheRoom(ctx: Ctx) {
  if (ctx.booking) expect(await probe(ctx, "10:00")).toBe(409);
}

const WRITES: FaultyWrite<Ctx, Slot>[] = [
  {
    name: "create",
    arrange: freshDay,
    act: (ctx) => book(ctx.date, "10:00", staff[0] ?? ""),
    status: 201,
    busy: "10:00",
    failingTable: "events",
    written: async (ctx) =>
      (await countOf(
        "select count(*) as n from calendar_entries where resource_id = ? and starts_at = ?",
        room.uuid,
        Date.parse(at("10:00", ctx.date)),
      )) === 1,
  },
  {
    name: "reschedule",
    arrange: booked,
    act: (ctx) =>
      salon.ws.api(`/bookings/${ctx.booking}/reschedule`, {
        method: "PUT",
        body: { reserved_on: at("12:00", ctx.date) },
      }),
    status: 200,
    busy: "12:00",
    frees: "10:00",
    failingTable: "events",
    unchanged: keepsTheRoom,
    written: async (ctx) =>
      (await countOf(
        "select count(*) as n from calendar_entries where resource_id = ? and source_id = ? and starts_at = ?",
        room.uuid,
        ctx.booking,
        Date.parse(at("12:00", ctx.date)),
      )) === 1,
  },
  {
    name: "cancel",
    arrange: booked,
    act: (ctx) =>
      salon.ws.api(`/bookings/${ctx.booking}/status/cancel`, { method: "PUT", body: {} }),
    status: 200,
    busy: null,
    frees: "10:00",
    failingTable: "events",
    unchanged: keepsTheRoom,
    written: async (ctx) =>
      (await countOf(
        "select count(*) as n from bookings where id = ? and is_canceled = 1",
        ctx.booking,
      )) === 1,
  },
  {
    name: "room blocked",
    arrange: freshDay,
    act: (ctx) =>
      admin(`/workspaces/${salon.ws.id}/resources/${room.uuid}/blocked-spots`, {
        method: "POST",
        body: { starts_at: at("13:00", ctx.date), ends_at: at("14:00", ctx.date) },
      }),
    status: 201,
    busy: "13:00",
    failingTable: "calendar_entries",
    written: async (ctx) =>
      (await countOf(
        "select count(*) as n from resource_blocks where resource_id = ? and starts_at = ?",
        room.uuid,
        Date.parse(at("13:00", ctx.date)),
      )) === 1,
  },
];

faultSuite<Ctx, Slot>({
  writes: WRITES,
  probe,
  inSync: async () => {
    await expectInSync(salon.ws.id, staff);
    await expectUnitsInSync(salon.ws.id, [room]);
  },
  expireHolds: () => expireHolds(salon.ws.id, [...staff, unitCalendarId(room.uuid, 1)]),
  // A room write claims staffer and unit calendars, and may settle each more than once.
  losses: 10,
  afterSettled: async () => expect(await unitOverlaps(salon.ws.id)).toEqual([]),
});
