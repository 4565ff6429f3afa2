import { beforeAll, expect } from "vitest";
import { entriesOf, expectInSync, expireHolds } from "../helpers/calendar";
import { countOf, faultSuite, weekdays, type FaultyWrite } from "../helpers/faults";
import { at, createSalon, customer, type Salon } from "../helpers/salon";

/**
 * The fault suite (test/helpers/faults.ts) over every booking write that
 * claims a staffer's time: no double booking in any case, and once the alarm
 * ran, every calendar equals D1.
 */
let salon: Salon;
let staff: string[];
beforeAll(async () => {
  salon = await createSalon(3);
  staff = salon.staffers.map((s) => s.uuid);
});

const nextDate = weekdays("2032-01-05");

interface Ctx {
  date: string;
  booking?: string;
}
/** A staffer (by index) and a time of the write's day. */
type Slot = [number, string];

const book = (date: string, hhmm: string, stafferId: string, phone = "+49 151 60000000") =>
  salon.ws.api("/bookings", {
    method: "POST",
    body: {
      location_uuid: salon.location.uuid,
      service_uuid: salon.cut.uuid,
      staffer_uuid: stafferId,
      reserved_on: at(hhmm, date),
      ...customer(phone),
    },
  });

/** A fresh day to write on. */
const freshDay = async (): Promise<Ctx> => ({ date: nextDate() });

/** A fresh day with a booking at 10:00 with the first staffer to act on. */
async function booked(): Promise<Ctx> {
  const date = nextDate();
  const res = await book(date, "10:00", staff[0] ?? "", "+49 151 60000002");
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { date, booking: res.body.uuid };
}

/** The booking acted on still holds exactly its original time. */
async function keepsItsTime(ctx: Ctx) {
  if (!ctx.booking) return;
  expect(await entriesOf(ctx.booking)).toEqual([
    {
      staffer_id: staff[0],
      starts_at: Date.parse(at("10:00", ctx.date)),
      ends_at: Date.parse(at("11:00", ctx.date)),
    },
  ]);
}

const WRITES: FaultyWrite<Ctx, Slot>[] = [
  {
    name: "create",
    arrange: freshDay,
    act: (ctx) => book(ctx.date, "10:00", staff[0] ?? ""),
    status: 201,
    busy: [0, "10:00"],
    failingTable: "events",
    written: async (ctx) =>
      (await countOf(
        "select count(*) as n from bookings where workspace_id = ? and start_at = ?",
        salon.ws.id,
        Date.parse(at("10:00", ctx.date)),
      )) === 1,
  },
  {
    name: "cart",
    arrange: freshDay,
    act: (ctx) =>
      salon.ws.api("/bookings/cart", {
        method: "POST",
        body: {
          location_uuid: salon.location.uuid,
          items: [
            {
              datetime_start: at("10:00", ctx.date),
              services: [
                { service_uuid: salon.cut.uuid, staffer_uuid: staff[0] },
                { service_uuid: salon.colour.uuid, staffer_uuid: staff[1] },
              ],
            },
          ],
          ...customer("+49 151 60000001"),
        },
      }),
    status: 201,
    busy: [1, "11:00"],
    failingTable: "events",
    written: async (ctx) =>
      (await countOf(
        "select count(*) as n from booking_services where workspace_id = ? and reserved_on = ?",
        salon.ws.id,
        Date.parse(at("11:00", ctx.date)),
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
    busy: [0, "12:00"],
    failingTable: "events",
    unchanged: keepsItsTime,
    written: async (ctx) =>
      (await countOf(
        "select count(*) as n from bookings where id = ? and start_at = ?",
        ctx.booking,
        Date.parse(at("12:00", ctx.date)),
      )) === 1,
  },
  {
    name: "change staffer",
    arrange: booked,
    act: (ctx) =>
      salon.ws.api(`/bookings/${ctx.booking}/staffer`, {
        method: "PUT",
        body: { staffer_uuid: staff[1] },
      }),
    status: 200,
    busy: [1, "10:00"],
    failingTable: "events",
    unchanged: keepsItsTime,
    written: async (ctx) =>
      (await countOf(
        "select count(*) as n from booking_services where booking_id = ? and staffer_id = ?",
        ctx.booking,
        staff[1],
      )) === 1,
  },
  {
    name: "replace service",
    arrange: booked,
    act: (ctx) =>
      salon.ws.api(`/bookings/${ctx.booking}/services`, {
        method: "PUT",
        body: { service_uuid: salon.colour.uuid },
      }),
    status: 200,
    busy: [0, "11:00"],
    failingTable: "events",
    unchanged: keepsItsTime,
    written: async (ctx) =>
      (await countOf(
        "select count(*) as n from booking_services where booking_id = ? and service_id = ?",
        ctx.booking,
        salon.colour.uuid,
      )) === 1,
  },
  {
    name: "cancel",
    arrange: booked,
    act: (ctx) =>
      salon.ws.api(`/bookings/${ctx.booking}/status/cancel`, { method: "PUT", body: {} }),
    status: 200,
    busy: null,
    frees: [0, "10:00"],
    failingTable: "events",
    unchanged: keepsItsTime,
    written: async (ctx) =>
      (await countOf(
        "select count(*) as n from bookings where id = ? and is_canceled = 1",
        ctx.booking,
      )) === 1,
  },
  {
    name: "blocked spot",
    arrange: freshDay,
    act: (ctx) =>
      salon.ws.api(`/staffers/${staff[0]}/blocked-spots`, {
        method: "POST",
        body: {
          location_uuid: salon.location.uuid,
          starts_at: at("13:00", ctx.date),
          ends_at: at("14:00", ctx.date),
        },
      }),
    status: 201,
    busy: [0, "13:00"],
    failingTable: "calendar_entries",
    written: async (ctx) =>
      (await countOf(
        "select count(*) as n from blocked_spots where workspace_id = ? and starts_at = ?",
        salon.ws.id,
        Date.parse(at("13:00", ctx.date)),
      )) === 1,
  },
];

faultSuite<Ctx, Slot>({
  writes: WRITES,
  /** A probe booking at the time the write made busy (refused) or freed (accepted). */
  probe: async (ctx, [staffer, hhmm]) =>
    (await book(ctx.date, hhmm, staff[staffer] ?? "", "+49 151 60000003")).status,
  inSync: () => expectInSync(salon.ws.id, staff),
  expireHolds: () => expireHolds(salon.ws.id, staff),
  losses: 3,
});
