import { dateOfDay, weekdayOf } from "./days";

/** A wall-clock interval of a working day, `HH:MM`..`HH:MM` (`24:00` ends at midnight). */
export interface LocalInterval {
  start: string;
  end: string;
}

/** A staffer's weekly interval at a location: ISO weekday 1..7 (Monday..Sunday). */
export interface WeeklyInterval extends LocalInterval {
  weekday: number;
}

const minuteOf = (hhmm: string): number => {
  const [h, m] = hhmm.split(":").map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
};

/**
 * Minutes of wall-clock intervals: each its end minus its start. A day whose
 * clock jumps (DST) still counts the intervals as written: the schedule is a
 * promise in wall-clock time, and utilization compares it with booked time.
 */
export const minutesOf = (intervals: readonly LocalInterval[]): number =>
  intervals.reduce((sum, i) => sum + Math.max(0, minuteOf(i.end) - minuteOf(i.start)), 0);

/**
 * A staffer's working minutes on a day of ISO weekday `weekday`: its date
 * override when it has one (empty = a day off), else its weekly intervals of
 * that weekday.
 */
export function workingMinutes(
  weekly: readonly WeeklyInterval[],
  override: readonly LocalInterval[] | undefined,
  weekday: number,
): number {
  if (override) return minutesOf(override);
  return minutesOf(weekly.filter((w) => w.weekday === weekday));
}

/**
 * A staffer's working minutes on each day `from`..`to` (day numbers), from
 * its weekly intervals and its overrides by date `YYYY-MM-DD`.
 */
export function workingPerDay(
  weekly: readonly WeeklyInterval[],
  overrides: ReadonlyMap<string, readonly LocalInterval[]>,
  from: number,
  to: number,
): number[] {
  const minutes: number[] = [];
  for (let day = from; day <= to; day++)
    minutes.push(workingMinutes(weekly, overrides.get(dateOfDay(day)), weekdayOf(day)));
  return minutes;
}
