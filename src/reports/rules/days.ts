import { offsetIn, type ZoneOffset } from "../../catalogue/rules/zone-offsets";

export const DAY_MS = 86_400_000;

/**
 * A location's day of an instant, as a day number (days since 1970-01-01 on
 * the location's wall clock): money that moved at 23:30 local time belongs to
 * that day, whatever UTC says. The SQL of the rollups computes exactly this.
 */
export const dayOf = (ms: number, offsets: readonly ZoneOffset[]): number =>
  Math.floor((ms + offsetIn(offsets, ms)) / DAY_MS);

/**
 * The instant a location's day starts: local midnight, found as the SQL does
 * (the offset at the UTC midnight of that date, then the offset at the instant
 * that gives). A midnight skipped by a transition starts the day at the
 * instant the clock jumps past it.
 */
export function dayStart(day: number, offsets: readonly ZoneOffset[]): number {
  const wall = day * DAY_MS;
  const first = wall - offsetIn(offsets, wall);
  return wall - offsetIn(offsets, first);
}

/** `2026-03-01` → its day number; null when it is no real date. */
export function dayOfDate(date: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(y, mo - 1, d);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d)
    return null;
  return ms / DAY_MS;
}

/** A day number → `2026-03-01`. */
export const dateOfDay = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** Monday of the ISO week a day falls in (1970-01-01 was a Thursday). */
export const weekOf = (day: number): number => day - ((((day + 3) % 7) + 7) % 7);

/** `2026-03` of a day. */
export const monthOf = (day: number): string => dateOfDay(day).slice(0, 7);

/** ISO weekday 1..7 (Monday..Sunday) of a day. */
export const weekdayOf = (day: number): number => ((((day + 3) % 7) + 7) % 7) + 1;
