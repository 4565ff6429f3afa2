import { beforeAll, expect } from "vitest";
import { expectInSync, expireHolds } from "../helpers/calendar";
import { countOf, faultSuite, type FaultyWrite } from "../helpers/faults";
import { at, createSalon, customer, type Salon } from "../helpers/salon";

/**
 * The fault suite (test/helpers/faults.ts) over a series: a failure between
 * its claim (one per calendar, every occurrence in it) and its batch, or
 * after, never leaves time given twice or half a series written, and once
 * the alarms ran every calendar equals D1.
 */
let salon: Salon;
let staff: string[];
beforeAll(async () => {
  salon = await createSalon(2);
  staff = salon.staffers.map((s) => s.uuid);
});

/** A fresh Monday per test, three weeks apart: a weekly series of 3 never meets another test's. */
let week = 0;
const nextMonday = () =>
  new Date(Date.parse("2033-01-03T00:00:00Z") + 21 * 86_400_000 * week++)
    .toISOString()
    .slice(0, 10);
const plusWeeks = (date: string, n: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + 7 * n * 86_400_000).toISOString().slice(0, 10);

interface Ctx {
  date: string;
}
/** A staffer (by index), a time, and which occurrence's week. */
type Slot = [number, string, number];

const book = (date: string, hhmm: string, stafferId: string) =>
  salon.ws.api("/bookings", {
    method: "POST",
    body: {
      location_uuid: salon.location.uuid,
      service_uuid: salon.cut.uuid,
      staffer_uuid: stafferId,
      reserved_on: at(hhmm, date),
      ...customer("+49 151 60000003"),
    },
  });

const occurrences = (ctx: Ctx) =>
  countOf(
    "select count(*) as n from bookings where workspace_id = ? and series_id is not null and start_at in (?, ?, ?)",
    salon.ws.id,
    ...[0, 1, 2].map((n) => Date.parse(at("10:00", plusWeeks(ctx.date, n)))),
  );

const WRITES: FaultyWrite<Ctx, Slot>[] = [
  {
    name: "series",
    arrange: async () => ({ date: nextMonday() }),
    act: (ctx) =>
      salon.ws.api("/bookings/series", {
        method: "POST",
        body: {
          location_uuid: salon.location.uuid,
          service_uuid: salon.cut.uuid,
          staffer_uuid: staff[0],
          reserved_on: at("10:00", ctx.date),
          recurrence: { rule: "FREQ=WEEKLY;COUNT=3" },
          ...customer("+49 151 60000001"),
        },
      }),
    status: 201,
    // The last occurrence: the claim held every week, not only the first.
    busy: [0, "10:00", 2],
    failingTable: "events",
    written: async (ctx) => (await occurrences(ctx)) > 0,
    afterCommit: async (ctx) => {
      expect(await occurrences(ctx)).toBe(3);
      // Every week is taken, the first too.
      expect((await book(ctx.date, "10:00", staff[0] ?? "")).status).toBe(409);
    },
    unchanged: async (ctx) => {
      expect(await occurrences(ctx)).toBe(0);
    },
  },
];

faultSuite<Ctx, Slot>({
  writes: WRITES,
  probe: async (ctx, [staffer, hhmm, n]) =>
    (await book(plusWeeks(ctx.date, n), hhmm, staff[staffer] ?? "")).status,
  inSync: () => expectInSync(salon.ws.id, staff),
  expireHolds: () => expireHolds(salon.ws.id, staff),
  losses: 2,
});
