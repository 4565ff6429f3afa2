import type { Scope } from "../db/scope";
import { nothing, readTogether } from "../db/reads";
import { notFound } from "../platform/errors";
import type { RevenueDim } from "../platform/rules/report-dims";
import { dayRangeOf, reportAnswer, type ReportQuery } from "./report-query";
import { reportLocation } from "./queries/report-location";
import { namesOf } from "./queries/names";
import { revenueByDay, revenueByKey, revenueKeys, type RevenueSums } from "./queries/revenue-days";
import { byLabel, periodKeyOf, periodsOf } from "./rules/periods";
import { methodLabel } from "./rules/labels";
import { REVENUE_SUMS } from "./rules/revenue-sums";
import type { RevenueGroup, RevenueReport, RevenueRow } from "./views/revenue";

const FIELDS = REVENUE_SUMS;
const ZERO = Object.fromEntries(FIELDS.map((f) => [f, 0])) as RevenueSums;

const add = (a: RevenueSums, b: RevenueSums): RevenueSums =>
  Object.fromEntries(FIELDS.map((f) => [f, a[f] + b[f]])) as RevenueSums;

/** The sums with the net the decisions define, in the workspace's currency. */
const withNet = (s: RevenueSums, currency: string) =>
  ({
    ...Object.fromEntries(FIELDS.map((f) => [f, s[f]])),
    net:
      s.services_amount +
      s.goods_amount +
      s.vouchers_sold +
      s.packages_sold +
      s.fees -
      s.discounts -
      s.refunds,
    currency,
  }) as Omit<RevenueRow, "key" | "label">;

const NONE_LABEL = {
  staffer: "No staffer",
  service: "No service",
  payment_method: "No payment method",
};

/**
 * Revenue of a location's days `from`..`to`, grouped, from its daily rollup in
 * one D1 round trip (the location, the rows, their names and the currency).
 */
export async function revenueReport(
  scope: Scope,
  q: ReportQuery<RevenueGroup>,
): Promise<RevenueReport> {
  const range = dayRangeOf(q);
  const base = reportLocation(scope, q.locationId);
  let data: RevenueRow[];
  let location: { id: string; timezone: string } | null;
  let currency: string;
  if (q.groupBy === "day" || q.groupBy === "week" || q.groupBy === "month") {
    const read = await readTogether(scope.db, { base, days: revenueByDay(scope, range) });
    ({ location, currency } = read.base);
    const byPeriod = new Map<string, RevenueSums>();
    for (const row of read.days) {
      const key = periodKeyOf(q.groupBy, row.day);
      byPeriod.set(key, add(byPeriod.get(key) ?? ZERO, row));
    }
    data = periodsOf(q.groupBy, range.from, range.to).map((p) => ({
      key: p.key,
      label: p.label,
      ...withNet(byPeriod.get(p.key) ?? ZERO, currency),
    }));
  } else {
    const dim: RevenueDim = q.groupBy;
    const read = await readTogether(scope.db, {
      base,
      keys: revenueByKey(scope, dim, range),
      names:
        dim === "payment_method"
          ? nothing(new Map<string, string>())
          : namesOf(scope, dim, revenueKeys(scope, dim, range)),
    });
    ({ location, currency } = read.base);
    data = read.keys
      .filter((row) => FIELDS.some((f) => row[f] !== 0))
      .map((row) => ({
        key: row.key === "" ? null : row.key,
        label:
          row.key === ""
            ? NONE_LABEL[dim]
            : dim === "payment_method"
              ? methodLabel(row.key)
              : (read.names.get(row.key) ?? row.key),
        ...withNet(row, currency),
      }))
      .sort(byLabel);
  }
  if (!location) throw notFound("Location");
  const totals = withNet(
    data.reduce<RevenueSums>((sum, row) => add(sum, row), ZERO),
    currency,
  );
  return reportAnswer(q, range, { location, currency, data, totals });
}
