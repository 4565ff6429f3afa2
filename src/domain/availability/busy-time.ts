import { type SplitBusy, splitBusy } from "./sessions";
import type { BusyInterval, Interval, LocationRules, StafferCalendarInput } from "./types";
import { type WeekPattern, WorkingHours } from "./working-hours";
import { dateOfDayNumber, dayNumberOf } from "./zone";
import { MINUTE } from "../duration";

/** Sorted, merged busy time: one binary search answers "is [t, t+need) free?". */
export function mergeBusy(busy: readonly Interval[]): Interval[] {
  const sorted = [...busy].sort((a, b) => a.start - b.start);
  const out: Interval[] = [];
  for (const b of sorted) {
    const last = out[out.length - 1];
    if (last && b.start <= last.end) last.end = Math.max(last.end, b.end);
    else out.push({ start: b.start, end: b.end });
  }
  return out;
}

/** Index of the first interval ending after t. */
export function firstEndingAfter(merged: readonly Interval[], t: number): number {
  let lo = 0;
  let hi = merged.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((merged[mid]?.end ?? 0) <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Index of the first interval starting at or after t (intervals sorted by start). */
export function firstStartingFrom(sorted: readonly Interval[], t: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid]?.start ?? 0) < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function overlapsMerged(merged: readonly Interval[], start: number, end: number): boolean {
  const hit = merged[firstEndingAfter(merged, start)];
  return hit !== undefined && hit.start < end;
}

/**
 * One staffer's calendar prepared for many questions: working intervals per
 * local day (converted once per week pattern, DST-correct, and shared with
 * every staffer who works the same week), merged busy time, and booked
 * minutes per day for fair auto-allocation.
 */
export class PreparedStaffer {
  readonly id: string;
  readonly busy: Interval[];
  /** The same busy time split into sessions of group services and the rest (seat questions). */
  readonly split: SplitBusy;
  /** Bookings only, sorted by start, with the longest one's length: a day's sum reads that day's. */
  private readonly bookings: Interval[];
  private readonly longestBooking: number;
  private readonly minutesFrom = new Map<number, number>();
  private readonly week: WeekPattern;
  private readonly overrides: Map<number, { start: string; end: string }[]>;
  private readonly ownDays = new Map<number, Interval[]>();

  constructor(
    input: StafferCalendarInput,
    private readonly location: LocationRules,
    private readonly hours: WorkingHours = new WorkingHours(location.timezone),
  ) {
    this.id = input.id;
    this.split = splitBusy(input.busy);
    this.busy = this.split.all;
    this.bookings = input.busy
      .filter((b: BusyInterval) => b.kind === "booking")
      .map((b) => ({ start: b.start, end: b.end }))
      .sort((a, b) => a.start - b.start);
    this.longestBooking = this.bookings.reduce((m, b) => Math.max(m, b.end - b.start), 0);
    this.week = hours.week(input.weekly);
    this.overrides = new Map(input.overrides.map((o) => [dayNumberOf(o.date), o.intervals]));
  }

  /** Working intervals of a local date, sorted by start. */
  workingOn(date: string): Interval[] {
    return this.workingOnDay(dayNumberOf(date));
  }

  /** The same by day number (days since 1970-01-01): the hot loops' form, no date text. */
  workingOnDay(day: number): Interval[] {
    if (this.overrides.size === 0 || !this.overrides.has(day)) {
      return this.week.on(day);
    }
    let intervals = this.ownDays.get(day);
    if (!intervals) {
      intervals = this.hours.convert(dateOfDayNumber(day), this.overrides.get(day) ?? []);
      this.ownDays.set(day, intervals);
    }
    return intervals;
  }

  /** Booked minutes inside [from, to), for fair auto-allocation; remembered per `from` of a day. */
  bookedMinutes(from: number, to: number): number {
    const memo = to - from === 86_400_000;
    const known = memo ? this.minutesFrom.get(from) : undefined;
    if (known !== undefined) return known;
    let ms = 0;
    // Sorted by start: a booking reaching `from` starts at most the longest booking before it.
    for (let i = firstStartingFrom(this.bookings, from - this.longestBooking); ; i++) {
      const b = this.bookings[i];
      if (!b || b.start >= to) break;
      ms += Math.max(0, Math.min(b.end, to) - Math.max(b.start, from));
    }
    const minutes = ms / MINUTE;
    if (memo) this.minutesFrom.set(from, minutes);
    return minutes;
  }

  get rules() {
    return this.location;
  }
}
