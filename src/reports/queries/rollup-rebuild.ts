import { and, eq, sql } from "drizzle-orm";
import { insertRows } from "../../db/bounded";
import { guard } from "../../db/guards";
import { reportBookingDays, reportCalendarDays, reportRevenueDays } from "../../db/schema";
import type { Scope } from "../../db/scope";
import type { Statement } from "../../db/statement";
import type { RevenueDim, BookingDim } from "../../platform/rules/report-dims";
import type { Rollups } from "../rules/raw-rows";
import { changesSum } from "./raw-reads";

/**
 * Replaces a location's rollup rows with `rollups`, guarded on Σ changes still
 * being `changesRead`: a trigger or order batch that moved a rollup since the
 * read makes the whole batch fail (and the rebuild retry). The new rows carry
 * changes = 1, the first of them Σ read + 1 besides, so Σ grows past what any
 * other rebuild read before this one and that one fails too.
 */
export function replaceRollups(
  scope: Scope,
  locationId: string,
  changesRead: number,
  rollups: Rollups,
): Statement[] {
  const { db, workspaceId } = scope;
  let bump = changesRead + 1;
  const changes = () => {
    const c = bump;
    bump = 1;
    return c;
  };
  const at = { locationId, workspaceId };
  const revenue = rollups.revenue.map((r) => ({
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
    guard(scope, sql`${changesSum(locationId)} = ${changesRead}`),
    db
      .delete(reportRevenueDays)
      .where(
        and(
          eq(reportRevenueDays.workspaceId, workspaceId),
          eq(reportRevenueDays.locationId, locationId),
        ),
      ),
    db
      .delete(reportCalendarDays)
      .where(
        and(
          eq(reportCalendarDays.workspaceId, workspaceId),
          eq(reportCalendarDays.locationId, locationId),
        ),
      ),
    db
      .delete(reportBookingDays)
      .where(
        and(
          eq(reportBookingDays.workspaceId, workspaceId),
          eq(reportBookingDays.locationId, locationId),
        ),
      ),
    ...insertRows(db, reportRevenueDays, revenue),
    ...insertRows(db, reportCalendarDays, calendar),
    ...insertRows(db, reportBookingDays, bookings),
  ];
}
