import { Temporal } from "temporal-polyfill";

const DAY_MS = 86_400_000;

/** `YYYY-MM-DD` of a day counted from 1970-01-01 (no zone involved). */
export const dateOfDayNumber = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
export const dayNumberOf = (date: string) => Math.floor(Date.parse(`${date}T00:00:00Z`) / DAY_MS);

/** Inclusive list of dates from `from` to `to`. */
export function localDateRange(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = dayNumberOf(from); d <= dayNumberOf(to); d++) out.push(dateOfDayNumber(d));
  return out;
}

/** ISO weekday (1 = Monday) of a date. */
export const isoWeekday = (date: string) =>
  ((new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7) + 1;

/** Wall-clock time on a date in a zone → instant; times in a DST gap move forward ("compatible"). */
export function localDateTimeToInstant(date: string, hhmm: string, timeZone: string): number {
  if (hhmm === "24:00")
    return localDateTimeToInstant(dateOfDayNumber(dayNumberOf(date) + 1), "00:00", timeZone);
  return Temporal.PlainDateTime.from(`${date}T${hhmm}`)
    .toZonedDateTime(timeZone, { disambiguation: "compatible" })
    .toInstant().epochMilliseconds;
}

/**
 * A zone's UTC offsets over a span, built from its transitions once, so the
 * engine can turn thousands of instants into wall-clock time with a binary
 * search instead of a Temporal object each.
 */
export class OffsetTable {
  private readonly starts: number[] = [];
  private readonly offsets: number[] = [];

  constructor(
    timeZone: string,
    private readonly from: number,
    private readonly to: number,
  ) {
    let zdt = Temporal.Instant.fromEpochMilliseconds(from).toZonedDateTimeISO(timeZone);
    this.starts.push(Number.NEGATIVE_INFINITY);
    this.offsets.push(zdt.offsetNanoseconds / 1e6);
    for (;;) {
      const next = zdt.getTimeZoneTransition("next");
      if (!next || next.epochMilliseconds > to) break;
      this.starts.push(next.epochMilliseconds);
      this.offsets.push(next.offsetNanoseconds / 1e6);
      zdt = next;
    }
  }

  offsetAt(ms: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.starts[mid] ?? 0) <= ms) lo = mid;
      else hi = mid - 1;
    }
    return this.offsets[lo] ?? 0;
  }

  /** Whether the table spans `radius` ms either side of `ms`. */
  covers(ms: number, radius: number): boolean {
    return ms - radius >= this.from && ms + radius <= this.to;
  }

  /** Whether the zone changes its offset within `radius` ms of `ms` (or the table cannot tell). */
  changesNear(ms: number, radius: number): boolean {
    if (!this.covers(ms, radius)) return true;
    for (let i = 1; i < this.starts.length; i++) {
      const at = this.starts[i] ?? 0;
      if (at > ms + radius) return false;
      if (at >= ms - radius) return true;
    }
    return false;
  }

  /** Local day number and milliseconds since local midnight. */
  local(ms: number): { day: number; msOfDay: number } {
    const wall = ms + this.offsetAt(ms);
    const day = Math.floor(wall / DAY_MS);
    return { day, msOfDay: wall - day * DAY_MS };
  }

  localDate(ms: number): string {
    return dateOfDayNumber(this.local(ms).day);
  }
}

export function instantToLocalDate(ms: number, timeZone: string): string {
  return new OffsetTable(timeZone, ms, ms).localDate(ms);
}
