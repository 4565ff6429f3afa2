import type { Scope } from "../db/scope";
import { readTogether } from "../db/reads";
import { notFound } from "../platform/errors";
import type { DayRange } from "./queries/report-range";
import { reportLocation } from "./queries/report-location";
import { namesOf } from "./queries/names";
import { calendarTime, type CalendarGrain } from "./queries/calendar-days";
import { utilizationStaffers, workingTime } from "./queries/working-time";
import { type LocalInterval, type WeeklyInterval, workingPerDay } from "./rules/working-minutes";

/** A staffer's time at the location over the range, day by day (index 0 = the range's first day). */
export interface StafferTime {
  id: string;
  name: string;
  working: number[];
}

/** Booked and blocked ms of a day, a staffer, or a staffer's day (`day` 0 / `stafferId` '' when not grouped by it). */
export interface CalendarCell {
  day: number;
  stafferId: string;
  bookedMs: number;
  blockedMs: number;
}

export interface UtilizationTime {
  location: { id: string; timezone: string };
  currency: string;
  /** Every staffer with a schedule, an override or calendar time at the location in the range. */
  staffers: StafferTime[];
  calendar: CalendarCell[];
}

/**
 * Everything utilization needs, in one D1 round trip: the location, its
 * staff's schedules and overrides, the calendar rollup of the range summed by
 * `grain`, the staffers' names and the currency.
 */
export async function utilizationTime(
  scope: Scope,
  range: DayRange,
  grain: CalendarGrain,
): Promise<UtilizationTime> {
  const read = await readTogether(scope.db, {
    base: reportLocation(scope, range.locationId),
    working: workingTime(scope, range),
    calendar: calendarTime(scope, range, grain),
    // Whoever is named: the location's staff and whoever has calendar time there.
    names: namesOf(scope, "staffer", utilizationStaffers(scope, range)),
  });
  const { location, currency } = read.base;
  if (!location) throw notFound("Location");
  const weekly = new Map<string, WeeklyInterval[]>();
  for (const w of read.working.weekly)
    weekly.set(w.stafferId, [...(weekly.get(w.stafferId) ?? []), w]);
  const overrides = new Map<string, Map<string, LocalInterval[]>>();
  for (const o of read.working.overrides) {
    const dates = overrides.get(o.stafferId) ?? new Map<string, LocalInterval[]>();
    dates.set(o.date, o.intervals);
    overrides.set(o.stafferId, dates);
  }
  const ids = new Set([...weekly.keys(), ...overrides.keys()]);
  for (const c of read.calendar)
    if (c.stafferId && (c.bookedMs || c.blockedMs)) ids.add(c.stafferId);
  const staffers = [...ids].map((id) => ({
    id,
    name: read.names.get(id) ?? id,
    working: workingPerDay(
      weekly.get(id) ?? [],
      overrides.get(id) ?? new Map(),
      range.from,
      range.to,
    ),
  }));
  return { location, currency, staffers, calendar: read.calendar };
}

/** Whole minutes of a rollup's milliseconds (calendar time is kept in ms). */
export const minutesOfMs = (ms: number): number => Math.round(ms / 60_000);
