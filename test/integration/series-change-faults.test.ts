import { beforeAll, expect } from "vitest";
import { entriesOf, expectInSync, expireHolds } from "../helpers/calendar";
import { countOf, type Fault, faultSuite, type FaultyWrite } from "../helpers/faults";
import { at, createSalon, customer, type Salon } from "../helpers/salon";
import { seedSeries, type SeededSeries } from "../helpers/series";
import { everyShard } from "../helpers/every-shard";

/**
 * The fault suite (test/helpers/faults.ts) over the series changes: a failure
 * injected between the claim and the batch, or after it, never leaves a
 * double booking or a half-changed series, and once the alarms ran every
 * calendar equals D1.
 */
let salon: Salon;
let staff: string[];
beforeAll(async () => {
  salon = await createSalon(1);
  staff = salon.staffers.map((s) => s.uuid);
});

const ALL: readonly Fault[] = [
  "unheard",
  "confirm lost",
  "answer and settlement lost",
  "certain failure",
  "lost",
  "lost, settlement lost",
];

/** Two Mondays a week apart, two weeks after the last write's. */
let n = 0;
const nextMonday = () => {
  const date = new Date(Date.parse("2034-01-02T00:00:00Z") + n * 14 * 86_400_000);
  n += 1;
  return date.toISOString().slice(0, 10);
};
const plusWeek = (date: string) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + 7 * 86_400_000).toISOString().slice(0, 10);

interface Ctx {
  dates: [string, string];
  series: SeededSeries;
}
/** A date (index into the series' dates) and a time. */
type Slot = [0 | 1, string];

async function seeded(): Promise<Ctx> {
  const first = nextMonday();
  const dates: [string, string] = [first, plusWeek(first)];
  const series = await seedSeries(salon, {
    starts: dates.map((d) => at("09:00", d)),
    phone: `+49 151 73${String(n).padStart(6, "0")}`,
  });
  return { dates, series };
}

/** Every occurrence still holds its own time, uncanceled. */
async function asSeeded(ctx: Ctx) {
  for (const [i, id] of ctx.series.bookings.entries()) {
    const date = ctx.dates[i] ?? "";
    expect(await entriesOf(id)).toEqual([
      {
        staffer_id: staff[0],
        starts_at: Date.parse(at("09:00", date)),
        ends_at: Date.parse(at("10:00", date)),
      },
    ]);
  }
  expect(
    await countOf(
      "select count(*) as n from bookings where series_id = ? and is_canceled = 0 and version = 0",
      ctx.series.id,
    ),
  ).toBe(2);
  const version = await everyShard
    .prepare("select version from series where id = ?")
    .bind(ctx.series.id)
    .first<{ version: number }>();
  expect(version?.version).toBe(0);
}

const WRITES: FaultyWrite<Ctx, Slot>[] = [
  {
    name: "series reschedule",
    arrange: seeded,
    act: (ctx) =>
      salon.ws.api(`/series/${ctx.series.id}/reschedule`, {
        method: "PUT",
        body: { from_booking_uuid: ctx.series.bookings[0], reserved_on: at("11:00", ctx.dates[0]) },
      }),
    status: 200,
    busy: [1, "11:00"],
    frees: [0, "09:00"],
    failingTable: "events",
    faults: ALL,
    unchanged: asSeeded,
    written: async (ctx) =>
      (await countOf(
        "select count(*) as n from bookings where series_id = ? and start_at in (?, ?)",
        ctx.series.id,
        Date.parse(at("11:00", ctx.dates[0])),
        Date.parse(at("11:00", ctx.dates[1])),
      )) === 2,
  },
  {
    name: "series cancel",
    arrange: seeded,
    act: (ctx) => salon.ws.api(`/series/${ctx.series.id}/cancel`, { method: "PUT", body: {} }),
    status: 200,
    busy: null,
    frees: [1, "09:00"],
    failingTable: "events",
    faults: ALL,
    unchanged: asSeeded,
    written: async (ctx) =>
      (await countOf(
        "select count(*) as n from bookings where series_id = ? and is_canceled = 1",
        ctx.series.id,
      )) === 2,
  },
];

faultSuite<Ctx, Slot>({
  writes: WRITES,
  /** A probe booking at the time the write made busy (refused) or freed (accepted). */
  probe: async (ctx, [day, hhmm]) =>
    (
      await salon.ws.api("/bookings", {
        method: "POST",
        body: {
          location_uuid: salon.location.uuid,
          service_uuid: salon.cut.uuid,
          staffer_uuid: staff[0],
          reserved_on: at(hhmm, ctx.dates[day]),
          ...customer("+49 151 73999999"),
        },
      })
    ).status,
  inSync: () => expectInSync(salon.ws.id, staff),
  expireHolds: () => expireHolds(salon.ws.id, staff),
  losses: 2,
});
