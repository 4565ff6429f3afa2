import { and, between, eq, type SQL, sql } from "drizzle-orm";
import { reportCalendarDays } from "../../db/schema";
import { read } from "../../db/reads";
import type { Scope } from "../../db/scope";
import type { DayRange } from "./report-range";

const t = reportCalendarDays;

const inRange = (scope: Scope, range: DayRange): SQL =>
  and(
    eq(t.locationId, range.locationId),
    between(t.day, range.from, range.to),
    sql`+${t.workspaceId} = ${scope.workspaceId}`,
  ) as SQL;

/** How the calendar time of the range comes back: summed per staffer, per day, or per both. */
export type CalendarGrain = "staffer" | "day" | "both";

/**
 * Booked and blocked time (ms) of the location's staffers in the range, summed
 * in D1 by `grain` (`both`: a row per day and staffer, for a heat map).
 */
export function calendarTime(scope: Scope, range: DayRange, grain: CalendarGrain) {
  const groupBy =
    grain === "staffer" ? [t.stafferId] : grain === "day" ? [t.day] : [t.day, t.stafferId];
  return read(
    [
      scope.db
        .select({
          day: grain === "staffer" ? sql<number>`0`.mapWith(Number) : t.day,
          stafferId: grain === "day" ? sql<string>`''` : t.stafferId,
          bookedMs: sql<number>`sum(${t.bookedMs})`.mapWith(Number),
          blockedMs: sql<number>`sum(${t.blockedMs})`.mapWith(Number),
        })
        .from(t)
        .where(inRange(scope, range))
        .groupBy(...groupBy),
    ] as const,
    ([rows]) => rows,
  );
}

/** The staffers with calendar time in the range, as a subquery. */
export const calendarStaffers = (scope: Scope, range: DayRange): SQL =>
  sql`select distinct ${t.stafferId} from ${t} where ${inRange(scope, range)}`;
