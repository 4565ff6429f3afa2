import { dateOfDay, dayOfDate, monthOf, weekOf } from "../../src/reports/rules/days";
import type { Rollups } from "../../src/reports/rules/raw-rows";
import { REVENUE_SUMS, type RevenueSum } from "../../src/reports/rules/revenue-sums";

/**
 * The reports computed by brute force from the rollup rows rollupsFromRaw made
 * out of the raw rows (the decisions of issue 43, spelled independently of
 * src/reports): per report and grouping, key ('' for none) → the row's numbers.
 */
type Numbers = Record<string, number | null>;
export type Expected = Record<string, Numbers>;

const rate = (part: number, whole: number) =>
  whole === 0 ? null : Math.round((part / whole) * 10_000) / 10_000;

const periodKey = (group: string, day: number) =>
  group === "day" ? dateOfDay(day) : group === "week" ? dateOfDay(weekOf(day)) : monthOf(day);

export function daysOf(from: string, to: string) {
  const first = dayOfDate(from) ?? 0;
  const last = dayOfDate(to) ?? 0;
  return { first, last, inRange: (d: number) => d >= first && d <= last };
}

export function expectedRevenue(r: Rollups, group: string, from: string, to: string): Expected {
  const { first, last, inRange } = daysOf(from, to);
  const out: Expected = {};
  const add = (key: string, row: Rollups["revenue"][number]) => {
    const sums = (out[key] ??= Object.fromEntries(REVENUE_SUMS.map((s) => [s, 0])));
    const values: Record<RevenueSum, number> = {
      bookings_completed: row.bookingsCompleted,
      services_amount: row.servicesAmount,
      goods_amount: row.goodsAmount,
      vouchers_sold: row.vouchersSold,
      packages_sold: row.packagesSold,
      fees: row.fees,
      refunds: row.refunds,
      discounts: row.discounts,
    };
    for (const s of REVENUE_SUMS) sums[s] = (sums[s] ?? 0) + values[s];
  };
  const periods = group === "day" || group === "week" || group === "month";
  if (periods)
    for (let d = first; d <= last; d++)
      out[periodKey(group, d)] ??= Object.fromEntries(REVENUE_SUMS.map((s) => [s, 0]));
  for (const row of r.revenue) {
    if (!inRange(row.day)) continue;
    if (periods && row.dim === "day") add(periodKey(group, row.day), row);
    if (!periods && row.dim === group) add(row.key, row);
  }
  for (const sums of Object.values(out))
    sums.net =
      (sums.services_amount ?? 0) +
      (sums.goods_amount ?? 0) +
      (sums.vouchers_sold ?? 0) +
      (sums.packages_sold ?? 0) +
      (sums.fees ?? 0) -
      (sums.discounts ?? 0) -
      (sums.refunds ?? 0);
  return out;
}

export function expectedNoShows(r: Rollups, group: string, from: string, to: string): Expected {
  const { inRange } = daysOf(from, to);
  const out: Expected = {};
  for (const row of r.bookings) {
    if (row.dim !== group || !inRange(row.day)) continue;
    const s = (out[row.key] ??= { bookings: 0, didnt_come: 0, late_cancels: 0, fees: 0 });
    s.bookings = (s.bookings ?? 0) + row.bookings;
    s.didnt_come = (s.didnt_come ?? 0) + row.didntCome;
    s.late_cancels = (s.late_cancels ?? 0) + row.lateCancels;
    s.fees = (s.fees ?? 0) + row.fees;
  }
  for (const s of Object.values(out)) {
    s.no_show_rate = rate(s.didnt_come ?? 0, s.bookings ?? 0);
    s.late_cancel_rate = rate(s.late_cancels ?? 0, s.bookings ?? 0);
  }
  return out;
}

/** Utilization: `workingPerDay` minutes for each scheduled staffer every day (their wall-clock schedule). */
export function expectedUtilization(
  r: Rollups,
  group: string,
  from: string,
  to: string,
  scheduled: string[],
  workingPerDay: number,
): Expected {
  const { first, last, inRange } = daysOf(from, to);
  const ms: Record<string, { booked: number; blocked: number; working: number }> = {};
  const at = (k: string) => (ms[k] ??= { booked: 0, blocked: 0, working: 0 });
  for (let d = first; d <= last; d++)
    for (const s of scheduled) at(group === "day" ? dateOfDay(d) : s).working += workingPerDay;
  for (const row of r.calendar) {
    if (!inRange(row.day)) continue;
    const k = at(group === "day" ? dateOfDay(row.day) : row.stafferId);
    k.booked += row.bookedMs;
    k.blocked += row.blockedMs;
  }
  return Object.fromEntries(
    Object.entries(ms).map(([k, v]) => {
      const booked = Math.round(v.booked / 60_000);
      return [
        k,
        {
          working_minutes: v.working,
          booked_minutes: booked,
          blocked_minutes: Math.round(v.blocked / 60_000),
          utilization: rate(booked, v.working),
        },
      ];
    }),
  );
}

/** An answer's rows as key → numbers (the fields `expected` names), groups of all zeros left out on both sides. */
export function compared(data: Record<string, unknown>[], expected: Expected) {
  const fields = Object.keys(Object.values(expected)[0] ?? {});
  const nonZero = (n: Numbers) => Object.values(n).some((v) => v !== 0 && v !== null);
  const got: Expected = {};
  for (const row of data) {
    const n = Object.fromEntries(fields.map((f) => [f, row[f] as number | null]));
    if (nonZero(n)) got[String(row.key ?? "")] = n;
  }
  const want = Object.fromEntries(Object.entries(expected).filter(([, n]) => nonZero(n)));
  return { got, want };
}
