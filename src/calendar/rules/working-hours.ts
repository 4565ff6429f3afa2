import type { Interval, WeeklyInterval } from "./types";
import { dateOfDayNumber, localDateTimeToInstant, OffsetTable } from "./zone";

const DAY = 86_400_000;
const YEAR = 366 * DAY;

/**
 * A memoising local→UTC converter. Away from an offset change a wall-clock
 * time is its UTC reading minus the zone's one offset there, read from an
 * `OffsetTable` (a binary search); within a day of a change, where gaps and
 * repeated hours need the zone rules, Temporal decides.
 */
export function instantConverter(timeZone: string) {
  const cache = new Map<string, number>();
  let table: OffsetTable | null = null;
  const exact = (date: string, hhmm: string) => {
    if (hhmm === "24:00") return null;
    const wall = Date.parse(`${date}T${hhmm}:00Z`);
    if (Number.isNaN(wall)) return null;
    if (!table?.covers(wall, 2 * DAY)) table = new OffsetTable(timeZone, wall - YEAR, wall + YEAR);
    const instant = wall - table.offsetAt(wall - table.offsetAt(wall));
    return table.changesNear(instant, 2 * DAY) ? null : instant;
  };
  return (date: string, hhmm: string) => {
    const key = `${date}T${hhmm}`;
    let v = cache.get(key);
    if (v === undefined) {
      v = exact(date, hhmm) ?? localDateTimeToInstant(date, hhmm, timeZone);
      cache.set(key, v);
    }
    return v;
  };
}

/** One weekly pattern's working intervals per local day, computed once per day for all who share it. */
export class WeekPattern {
  private readonly days = new Map<number, Interval[]>();
  /** Index 1..7 (Monday..Sunday): that weekday's intervals as written. */
  private readonly byWeekday: { start: string; end: string }[][];

  constructor(
    weekly: readonly WeeklyInterval[],
    private readonly hours: WorkingHours,
  ) {
    this.byWeekday = Array.from({ length: 8 }, (_, d) => weekly.filter((w) => w.weekday === d));
  }

  on(day: number): Interval[] {
    let intervals = this.days.get(day);
    if (!intervals) {
      // 1970-01-01 (day 0) was a Thursday: ISO weekday 4.
      const weekday = ((((day + 3) % 7) + 7) % 7) + 1;
      intervals = this.hours.convert(dateOfDayNumber(day), this.byWeekday[weekday] ?? []);
      this.days.set(day, intervals);
    }
    return intervals;
  }
}

/**
 * Working hours of one search: the zone's converter and one `WeekPattern`
 * per distinct weekly schedule. A hundred staffers on the same week convert
 * each day's hours once, and hand the same (read-only) arrays around.
 */
export class WorkingHours {
  private readonly toInstant: (date: string, hhmm: string) => number;
  private readonly patterns = new Map<string, WeekPattern>();

  constructor(timeZone: string) {
    this.toInstant = instantConverter(timeZone);
  }

  week(weekly: readonly WeeklyInterval[]): WeekPattern {
    // Input order is part of the key: it decides the order of equal starts.
    const key = weekly.map((w) => `${w.weekday} ${w.start} ${w.end}`).join(",");
    let pattern = this.patterns.get(key);
    if (!pattern) {
      pattern = new WeekPattern(weekly, this);
      this.patterns.set(key, pattern);
    }
    return pattern;
  }

  /** Wall-clock intervals of a date as instants, empty ones dropped, sorted by start. */
  convert(date: string, spec: readonly { start: string; end: string }[]): Interval[] {
    return spec
      .map((w) => ({ start: this.toInstant(date, w.start), end: this.toInstant(date, w.end) }))
      .filter((i) => i.end > i.start)
      .sort((a, b) => a.start - b.start);
  }
}
