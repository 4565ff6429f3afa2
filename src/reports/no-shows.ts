import type { Scope } from "../db/scope";
import { readTogether } from "../db/reads";
import { notFound } from "../platform/errors";
import { dayRangeOf, reportAnswer, type ReportQuery } from "./report-query";
import { reportLocation } from "./queries/report-location";
import { namesOf } from "./queries/names";
import { bookingKeys, bookingsByKey } from "./queries/booking-days";
import { byLabel, rate } from "./rules/periods";
import type { NoShowGroup, NoShowReport, NoShowRow } from "./views/no-shows";

interface Counts {
  bookings: number;
  didnt_come: number;
  late_cancels: number;
  fees: number;
}

const withRates = (c: Counts, currency: string): Omit<NoShowRow, "key" | "label"> => ({
  bookings: c.bookings,
  didnt_come: c.didnt_come,
  late_cancels: c.late_cancels,
  no_show_rate: rate(c.didnt_come, c.bookings),
  late_cancel_rate: rate(c.late_cancels, c.bookings),
  fees: c.fees,
  currency,
});

const NONE_LABEL = { service: "No service", staffer: "No staffer", customer: "No customer" };

/**
 * No-shows and late cancels of the bookings starting on a location's days
 * `from`..`to`, per service, staffer or customer, from the bookings rollup in
 * one D1 round trip. A booking of two services counts under each.
 */
export async function noShowReport(
  scope: Scope,
  q: ReportQuery<NoShowGroup>,
): Promise<NoShowReport> {
  const range = dayRangeOf(q);
  const read = await readTogether(scope.db, {
    base: reportLocation(scope, q.locationId),
    keys: bookingsByKey(scope, q.groupBy, range),
    names: namesOf(scope, q.groupBy, bookingKeys(scope, q.groupBy, range)),
  });
  const { location, currency } = read.base;
  if (!location) throw notFound("Location");
  const data = read.keys
    .filter((r) => r.bookings !== 0 || r.didnt_come !== 0 || r.late_cancels !== 0 || r.fees !== 0)
    .map((r) => ({
      key: r.key === "" ? null : r.key,
      label: r.key === "" ? NONE_LABEL[q.groupBy] : (read.names.get(r.key) ?? r.key),
      ...withRates(r, currency),
    }))
    .sort(byLabel);
  const sum = data.reduce<Counts>(
    (s, r) => ({
      bookings: s.bookings + r.bookings,
      didnt_come: s.didnt_come + r.didnt_come,
      late_cancels: s.late_cancels + r.late_cancels,
      fees: s.fees + r.fees,
    }),
    { bookings: 0, didnt_come: 0, late_cancels: 0, fees: 0 },
  );
  return reportAnswer(q, range, { location, currency, data, totals: withRates(sum, currency) });
}
