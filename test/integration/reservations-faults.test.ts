import { beforeAll, expect } from "vitest";
import { expectInSync, expireHolds } from "../helpers/calendar";
import { countOf, faultSuite, weekdays, type FaultyWrite } from "../helpers/faults";
import type { Received } from "../helpers/http";
import { at, createSalon, customer, type Salon } from "../helpers/salon";

/**
 * The fault suite (test/helpers/faults.ts) over the two writes reservations
 * add: holding time, and booking what is held. The held time never reaches a
 * third client.
 */
let salon: Salon;
let staff: string[];
beforeAll(async () => {
  salon = await createSalon(2);
  staff = salon.staffers.map((s) => s.uuid);
});

const nextDate = weekdays("2033-01-03");

interface Ctx {
  date: string;
  /** The reservation a booking uses. */
  reservation?: string;
}

const reserve = (date: string) =>
  salon.ws.api("/reservations", {
    method: "POST",
    body: {
      location_uuid: salon.location.uuid,
      items: [
        {
          datetime_start: at("10:00", date),
          services: [{ service_uuid: salon.cut.uuid, staffer_uuid: staff[0] }],
        },
      ],
    },
  });

const book = (date: string, extra: Record<string, unknown> = {}, phone = "+49 151 70000000") =>
  salon.ws.api("/bookings", {
    method: "POST",
    body: {
      location_uuid: salon.location.uuid,
      service_uuid: salon.cut.uuid,
      staffer_uuid: staff[0],
      reserved_on: at("10:00", date),
      ...customer(phone),
      ...extra,
    },
  });

const bookings = (date: string) =>
  countOf(
    "select count(*) as n from bookings where workspace_id = ? and start_at = ? and is_canceled = 0",
    salon.ws.id,
    Date.parse(at("10:00", date)),
  );

const uuidOf = (res: Received) => (res.body as { uuid: string }).uuid;

const reservationStatus = async (id: string | undefined) =>
  (await salon.ws.api(`/reservations/${id}`)).status;

/** A fresh day on which the first staffer's 10:00 is held by a reservation. */
async function held(): Promise<Ctx> {
  const date = nextDate();
  const res = await reserve(date);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { date, reservation: res.body.uuid as string };
}

const WRITES: FaultyWrite<Ctx, "10:00">[] = [
  {
    name: "holding time",
    arrange: async () => ({ date: nextDate() }),
    act: (ctx) => reserve(ctx.date),
    status: 201,
    busy: "10:00",
    failingTable: "reservations",
    written: async (_ctx, res) =>
      (await countOf("select count(*) as n from reservations where id = ?", uuidOf(res))) === 1,
    afterCommit: async (_ctx, res) => expect(await reservationStatus(uuidOf(res))).toBe(200),
    faults: ["unheard"],
  },
  {
    name: "booking what a reservation holds",
    arrange: held,
    act: (ctx) => book(ctx.date, { reservation_uuid: ctx.reservation }),
    status: 201,
    busy: "10:00",
    heldBefore: true,
    failingTable: "events",
    written: async (ctx) => (await bookings(ctx.date)) === 1,
    // Booked, the reservation is used up.
    afterCommit: async (ctx) => expect(await reservationStatus(ctx.reservation)).toBe(404),
    // The reservation still holds, and can be used.
    unchanged: async (ctx) => {
      expect(await reservationStatus(ctx.reservation)).toBe(200);
      expect(await probe(ctx)).toBe(409);
      expect((await book(ctx.date, { reservation_uuid: ctx.reservation })).status).toBe(201);
      await expectInSync(salon.ws.id, staff);
    },
  },
];

/** A third client's try for the held or booked time. */
const probe = async (ctx: Ctx) => (await book(ctx.date, {}, "+49 151 70000001")).status;

faultSuite<Ctx, "10:00">({
  writes: WRITES,
  probe,
  inSync: () => expectInSync(salon.ws.id, staff),
  expireHolds: () => expireHolds(salon.ws.id, staff),
  losses: 3,
});
