import { type SQL, sql } from "drizzle-orm";
import { reportBookingDays } from "../../db/schema";
import { read } from "../../db/reads";
import type { Scope } from "../../db/scope";
import type { BookingDim } from "../../platform/rules/report-dims";
import { dimInRange, dimKeys } from "./dim-rows";
import type { DayRange } from "./report-range";

const t = reportBookingDays;

const inRange = (scope: Scope, dim: BookingDim, range: DayRange) =>
  dimInRange(t, scope, dim, range);

/** The range's bookings per key of a dimension ('' = none), summed in D1: one row per key. */
export const bookingsByKey = (scope: Scope, dim: BookingDim, range: DayRange) =>
  read(
    [
      scope.db
        .select({
          key: t.key,
          bookings: sql<number>`sum(${t.bookings})`.mapWith(Number),
          didnt_come: sql<number>`sum(${t.didntCome})`.mapWith(Number),
          late_cancels: sql<number>`sum(${t.lateCancels})`.mapWith(Number),
          fees: sql<number>`sum(${t.fees})`.mapWith(Number),
        })
        .from(t)
        .where(inRange(scope, dim, range))
        .groupBy(t.key),
    ] as const,
    ([rows]) => rows,
  );

/** The keys of a dimension in the range, as a subquery (the labels' batch statement). */
export const bookingKeys = (scope: Scope, dim: BookingDim, range: DayRange): SQL =>
  dimKeys(t, scope, dim, range);
