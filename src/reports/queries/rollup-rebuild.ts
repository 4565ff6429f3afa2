import { and, between, eq, sql } from "drizzle-orm";
import { insertRows } from "../../db/bounded";
import { guard } from "../../db/guards";
import { reportBookingDays, reportCalendarDays, reportRevenueDays } from "../../db/schema";
import type { Scope } from "../../db/scope";
import type { Statement } from "../../db/statement";
import type { RevenueDim, BookingDim } from "../../platform/rules/report-dims";
import type { Rollups } from "../rules/raw-rows";
import { zeroRevenue } from "../rules/revenue-sums";
import { changesSum } from "./raw-reads";

/** What the rebuild read: Σ changes of the location, and of the rows it replaces. */
export interface ChangesRead {
  changes: number;
  windowChanges: number;
}

/**
 * Replaces a location's rollup rows on days first..last with `rollups` (at
 * least one row: an all-zero day row when they are none), guarded on Σ changes
 * still being what was read: a trigger or order batch that moved a rollup
 * since the read makes the whole batch fail (and the rebuild retry). The new
 * rows carry changes = 1, the first of them the replaced rows' Σ + 1 besides,
 * so the location's Σ grows (by the rows written) past what any other rebuild
 * read before this one, and that one fails too. (Σ read + 1 would double Σ
 * with every window, past 2^53 after a few rebuilds.)
 */
export function replaceRollups(
  scope: Scope,
  locationId: string,
  read: ChangesRead,
  days: { first: number; last: number },
  rollups: Rollups,
): Statement[] {
  const { db, workspaceId } = scope;
  let bump = read.windowChanges + 1;
  const changes = () => {
    const c = bump;
    bump = 1;
    return c;
  };
  const at = { locationId, workspaceId };
  const none = rollups.revenue.length + rollups.calendar.length + rollups.bookings.length === 0;
  const marker = { ...zeroRevenue(), dim: "day", day: days.first, key: "" };
  const revenue = (none ? [marker] : rollups.revenue).map((r) => ({
    ...at,
    ...r,
    dim: r.dim as RevenueDim,
    changes: changes(),
  }));
  const calendar = rollups.calendar.map((r) => ({ ...at, ...r, changes: changes() }));
  const bookings = rollups.bookings.map((r) => ({
    ...at,
    ...r,
    dim: r.dim as BookingDim,
    changes: changes(),
  }));
  return [
    guard(scope, sql`${changesSum(locationId)} = ${read.changes}`),
    ...[reportRevenueDays, reportCalendarDays, reportBookingDays].map((t) =>
      db
        .delete(t)
        .where(
          and(
            eq(t.workspaceId, workspaceId),
            eq(t.locationId, locationId),
            between(t.day, days.first, days.last),
          ),
        ),
    ),
    ...insertRows(db, reportRevenueDays, revenue),
    ...insertRows(db, reportCalendarDays, calendar),
    ...insertRows(db, reportBookingDays, bookings),
  ];
}
