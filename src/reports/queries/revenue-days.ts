import { type SQL, sql } from "drizzle-orm";
import { reportRevenueDays } from "../../db/schema";
import { read } from "../../db/reads";
import type { Scope } from "../../db/scope";
import type { RevenueDim } from "../../platform/rules/report-dims";
import { REVENUE_PROPERTY, REVENUE_SUMS, type RevenueSum } from "../rules/revenue-sums";
import { dimInRange, dimKeys } from "./dim-rows";
import type { DayRange } from "./report-range";

const t = reportRevenueDays;

/** The sums of the rollup, summed over whatever the statement groups by. */
const sums = Object.fromEntries(
  REVENUE_SUMS.map((s) => [s, sql<number>`sum(${t[REVENUE_PROPERTY[s]]})`.mapWith(Number)]),
) as Record<RevenueSum, SQL<number>>;

export type RevenueSums = Record<RevenueSum, number>;

const inRange = (scope: Scope, dim: RevenueDim, range: DayRange) =>
  dimInRange(t, scope, dim, range);

/** The day totals of the range (dimension `day`, key ''), one row per day that has any. */
export const revenueByDay = (scope: Scope, range: DayRange) =>
  read(
    [
      scope.db
        .select({ day: t.day, ...sums })
        .from(t)
        .where(inRange(scope, "day", range))
        .groupBy(t.day),
    ] as const,
    ([rows]) => rows,
  );

/** The range's sums per key of a dimension ('' = none), summed in D1: one row per key. */
export const revenueByKey = (scope: Scope, dim: RevenueDim, range: DayRange) =>
  read(
    [
      scope.db
        .select({ key: t.key, ...sums })
        .from(t)
        .where(inRange(scope, dim, range))
        .groupBy(t.key),
    ] as const,
    ([rows]) => rows,
  );

/** The keys of a dimension in the range, as a subquery (the labels' batch statement). */
export const revenueKeys = (scope: Scope, dim: RevenueDim, range: DayRange): SQL =>
  dimKeys(t, scope, dim, range);
