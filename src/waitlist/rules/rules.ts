import { type Interval, localDateTimeToInstant, OffsetTable } from "../../calendar/rules";
import { dateOfDayNumber, dayNumberOf } from "../../calendar/rules/zone";

/** The bounds of one waitlist entry and of the entries one phone or one visitor may hold. */
export const WAITLIST = {
  maxServices: 5,
  /** `to` at most this many days after `from`. */
  maxWindowDays: 62,
  maxTimes: 7,
  /** Open (waiting or offered) entries per phone number. */
  perPhone: 3,
  /** Open entries a publishable key's visitor (key and client address) may have made. */
  perVisitor: 3,
  /** An entry that let this many offers lapse expires instead of waiting again. */
  maxLapses: 3,
  /** A publishable key's entry: `from` at most this many days after the location's today. */
  maxLeadDays: 90,
} as const;

/**
 * Offers made to entries a publishable key joined, counted over the last
 * `windowSeconds`: per joining visitor (key and client address) and per
 * workspace (whatever address joined). Deleting an entry and joining again
 * (a new offer each time) cannot go past them; staff's entries neither count
 * nor are held back.
 */
export const PUBLIC_OFFERS = {
  perVisitor: 6,
  perWorkspace: 100,
  windowSeconds: 86_400,
} as const;

/** A local time-of-day window `HH:MM`–`HH:MM` (end after start; `24:00` is midnight after). */
export interface TimeWindow {
  start: string;
  end: string;
}

const MINUTE = 60_000;
const DAY = 86_400_000;
const minutesOf = (hhmm: string) => {
  const [h, m] = hhmm.split(":").map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
};

/** The window of an entry as instants: from the start of `from` to the end of `to`, local. */
export function entryWindow(from: string, to: string, timeZone: string): Interval {
  return {
    start: localDateTimeToInstant(from, "00:00", timeZone),
    end: localDateTimeToInstant(to, "24:00", timeZone),
  };
}

/**
 * Whether a visit [start, end) lies within one of the local time windows of
 * its day (any time when there are none). Measured in wall-clock minutes, so
 * a window means the same on both sides of a DST change.
 */
export function withinTimes(
  zone: OffsetTable,
  start: number,
  end: number,
  times: readonly TimeWindow[] | null,
): boolean {
  if (!times || times.length === 0) return true;
  const a = zone.local(start);
  const b = zone.local(end);
  const from = a.msOfDay / MINUTE;
  // A visit ending at midnight ends at minute 1440 of its own day.
  const until =
    b.day === a.day ? b.msOfDay / MINUTE : b.day === a.day + 1 && b.msOfDay === 0 ? 1440 : Infinity;
  return times.some((w) => from >= minutesOf(w.start) && until <= minutesOf(w.end));
}

/** The local dates (sorted, unique) that intervals touch, at most `limit` of them. */
export function localDays(
  intervals: readonly Interval[],
  timeZone: string,
  limit: number,
): string[] {
  if (intervals.length === 0) return [];
  const from = Math.min(...intervals.map((i) => i.start));
  const to = Math.max(...intervals.map((i) => i.end));
  const zone = new OffsetTable(timeZone, from - DAY, to + DAY);
  const start = Math.min(...intervals.map((i) => zone.local(i.start).day));
  const days = new Set<number>();
  for (const i of intervals) {
    const first = zone.local(i.start).day;
    const last = Math.min(zone.local(Math.max(i.start, i.end - 1)).day, start + limit - 1);
    for (let d = first; d <= last; d++) days.add(d);
  }
  return [...days].sort((a, b) => a - b).map(dateOfDayNumber);
}

/** Whether [start, end) overlaps any of the intervals. */
export const overlapsAny = (start: number, end: number, intervals: readonly Interval[]) =>
  intervals.some((i) => i.start < end && start < i.end);

/** Days from `from` to `to` (inclusive count minus one): 0 for a one-day window. */
export const daysBetween = (from: string, to: string) => dayNumberOf(to) - dayNumberOf(from);

/** The local dates of a window, inclusive. */
export function windowDays(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = dayNumberOf(from); d <= dayNumberOf(to); d++) out.push(dateOfDayNumber(d));
  return out;
}
