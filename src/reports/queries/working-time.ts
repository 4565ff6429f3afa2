import { and, between, eq, type SQL, sql } from "drizzle-orm";
import { stafferDateOverrides, stafferLocations, stafferSchedules } from "../../db/schema";
import { read } from "../../db/reads";
import type { Scope } from "../../db/scope";
import { inSubquery } from "../../db/bounded";
import { dateOfDay } from "../rules/days";
import { calendarStaffers } from "./calendar-days";
import type { DayRange } from "./report-range";

/** The location's staff, as a subquery (through its index on location). */
const staffOf = (range: DayRange): SQL =>
  sql`select ${stafferLocations.stafferId} from ${stafferLocations} where ${stafferLocations.locationId} = ${range.locationId}`;
const locationStaff = (range: DayRange): SQL => sql`(${staffOf(range)})`;

/** The rows of the location's staff at the location, in the workspace. */
const ofLocationStaff = (
  t: typeof stafferSchedules | typeof stafferDateOverrides,
  scope: Scope,
  range: DayRange,
) => [
  inSubquery(t.stafferId, locationStaff(range)),
  eq(t.locationId, range.locationId),
  sql`+${t.workspaceId} = ${scope.workspaceId}`,
];

/**
 * What working time is made of: the weekly intervals of the location's staff
 * at the location, and their date overrides in the range.
 */
export const workingTime = (scope: Scope, range: DayRange) =>
  read(
    [
      scope.db
        .select({
          stafferId: stafferSchedules.stafferId,
          weekday: stafferSchedules.weekday,
          start: stafferSchedules.start,
          end: stafferSchedules.end,
        })
        .from(stafferSchedules)
        .where(and(...ofLocationStaff(stafferSchedules, scope, range))),
      scope.db
        .select({
          stafferId: stafferDateOverrides.stafferId,
          date: stafferDateOverrides.date,
          intervals: stafferDateOverrides.intervals,
        })
        .from(stafferDateOverrides)
        .where(
          and(
            ...ofLocationStaff(stafferDateOverrides, scope, range),
            between(stafferDateOverrides.date, dateOfDay(range.from), dateOfDay(range.to)),
          ),
        ),
    ] as const,
    ([weekly, overrides]) => ({ weekly, overrides }),
  );

/** Whose names utilization needs: the location's staff and whoever has calendar time there. */
export const utilizationStaffers = (scope: Scope, range: DayRange): SQL =>
  sql`(${staffOf(range)} union ${calendarStaffers(scope, range)})`;
