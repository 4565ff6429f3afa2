import { and, asc, count, eq, type SQL, sql } from "drizzle-orm";
import type { PageRequest } from "../../platform/pagination";
import { insertRows } from "../../db/bounded";
import { IdListSchema, parseJsonColumn, RefListSchema } from "../../db/json-column";
import {
  stafferDateOverrides,
  stafferLocations,
  stafferSchedules,
  staffers,
} from "../../db/schema";
import { type Scope, whereIn } from "../../db/scope";
import type { Statement } from "../../db/statement";

// The staffer's locations ride along as a JSON array so a page stays one query.
const locationIds = sql<string>`(select json_group_array(${stafferLocations.locationId}) from ${stafferLocations} where ${stafferLocations.stafferId} = ${staffers.id})`;

export async function listStaffers(scope: Scope, page: PageRequest, filter?: SQL) {
  const where = whereIn(scope, staffers, filter);
  const [totals, rows] = await scope.db.batch([
    scope.db.select({ total: count() }).from(staffers).where(where),
    scope.db
      .select({ staffer: staffers, locationIds })
      .from(staffers)
      .where(where)
      .orderBy(asc(staffers.createdAt), asc(staffers.id))
      .limit(page.perPage)
      .offset(page.offset),
  ]);
  return {
    total: totals[0]?.total ?? 0,
    rows: rows.map((r) => ({
      staffer: r.staffer,
      locationIds: parseJsonColumn(IdListSchema, r.locationIds, {
        column: "staffer_locations (aggregate)",
        id: r.staffer.id,
      }),
    })),
  };
}

// Each location as { uuid, name }, riding along like `locationIds`. Written out in SQL: in a
// one-table select drizzle leaves interpolated columns unqualified, and a bare "id" inside the
// subquery would be the location's, not the staffer's.
const locationRefs = sql<string>`(select json_group_array(json_object('uuid', l.id, 'name', l.name)) from staffer_locations sl join locations l on l.id = sl.location_id where sl.staffer_id = staffers.id)`;

/**
 * The staff a booking page may offer (active in the widget), with only the
 * columns it shows: what a publishable key reads never left D1 with the rest.
 */
export async function listWidgetStaffers(scope: Scope, page: PageRequest) {
  const where = whereIn(scope, staffers, eq(staffers.isActiveInWidget, true));
  const [totals, rows] = await scope.db.batch([
    scope.db.select({ total: count() }).from(staffers).where(where),
    scope.db
      .select({
        id: staffers.id,
        firstName: staffers.firstName,
        lastName: staffers.lastName,
        locations: locationRefs,
      })
      .from(staffers)
      .where(where)
      .orderBy(asc(staffers.createdAt), asc(staffers.id))
      .limit(page.perPage)
      .offset(page.offset),
  ]);
  return {
    total: totals[0]?.total ?? 0,
    rows: rows.map((r) => ({
      ...r,
      locations: parseJsonColumn(RefListSchema, r.locations, {
        column: "staffer_locations (aggregate)",
        id: r.id,
      }),
    })),
  };
}

export interface ScheduleInput {
  intervals: { location_uuid: string; weekday: number; start: string; end: string }[];
  overrides: { location_uuid: string; date: string; intervals: { start: string; end: string }[] }[];
}

/** Statements that replace a staffer's whole weekly schedule and date overrides. */
export function replaceScheduleStatements(scope: Scope, stafferId: string, input: ScheduleInput) {
  const { db, workspaceId } = scope;
  const statements: Statement[] = [
    db
      .delete(stafferSchedules)
      .where(
        and(
          eq(stafferSchedules.workspaceId, workspaceId),
          eq(stafferSchedules.stafferId, stafferId),
        ),
      ),
    db
      .delete(stafferDateOverrides)
      .where(
        and(
          eq(stafferDateOverrides.workspaceId, workspaceId),
          eq(stafferDateOverrides.stafferId, stafferId),
        ),
      ),
  ];
  statements.push(
    ...insertRows(
      db,
      stafferSchedules,
      input.intervals.map((i) => ({
        id: crypto.randomUUID(),
        workspaceId,
        stafferId,
        locationId: i.location_uuid,
        weekday: i.weekday,
        start: i.start,
        end: i.end,
      })),
    ),
    ...insertRows(
      db,
      stafferDateOverrides,
      input.overrides.map((o) => ({
        id: crypto.randomUUID(),
        workspaceId,
        stafferId,
        locationId: o.location_uuid,
        date: o.date,
        intervals: o.intervals,
      })),
    ),
  );
  return statements;
}
