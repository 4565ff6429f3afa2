import { type SplitBusy, splitBusy } from "./sessions";
import type { BusyInterval, Interval, LocationRules, StafferCalendarInput } from "./types";
import { type WeekPattern, WorkingHours } from "./working-hours";
import { dateOfDayNumber, dayNumberOf } from "./zone";
import { MINUTE } from "../duration";

/** Whether intervals come in start order already (D1 reads them so): no sort needed then. */
export function inStartOrder(list: readonly Interval[]): boolean {
  for (let i = 1; i < list.length; i++)
    if ((list[i] as Interval).start < (list[i - 1] as Interval).start) return false;
  return true;
}

/**
 * Sorted, merged busy time: one binary search answers "is [t, t+need) free?".
 * Input in start order (as D1 reads it) is merged in one pass; any other is sorted first.
 */
export function mergeBusy(busy: readonly Interval[]): Interval[] {
  const out: Interval[] = [];
  let previous = Number.NEGATIVE_INFINITY;
  for (const b of busy) {
    if (b.start < previous) return mergeSorted([...busy].sort((x, y) => x.start - y.start));
    previous = b.start;
    const last = out[out.length - 1];
    if (last && b.start <= last.end) last.end = Math.max(last.end, b.end);
    // Fresh objects of one shape: the hot loops read them monomorphically.
    else out.push({ start: b.start, end: b.end });
  }
  return out;
}

/**
 * Merged busy time as two parallel arrays (the same intervals as
 * `mergeBusy`): what the slot search walks, with no object per interval.
 */
export interface BusyTimes {
  starts: Float64Array;
  ends: Float64Array;
  length: number;
}

export function mergeBusyTimes(busy: readonly Interval[]): BusyTimes {
  const starts = new Float64Array(busy.length);
  const ends = new Float64Array(busy.length);
  let n = 0;
  let previous = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < busy.length; i++) {
    const { start, end } = busy[i] as Interval;
    if (start < previous) return mergeBusyTimes([...busy].sort((x, y) => x.start - y.start));
    previous = start;
    if (n > 0 && start <= (ends[n - 1] as number)) {
      if (end > (ends[n - 1] as number)) ends[n - 1] = end;
    } else {
      starts[n] = start;
      ends[n] = end;
      n++;
    }
  }
  return { starts, ends, length: n };
}

/** Index of the first of the busy times ending after t. */
export function firstTimeEndingAfter(times: BusyTimes, t: number): number {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((times.ends[mid] as number) <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function mergeSorted(sorted: readonly Interval[]): Interval[] {
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

/** Whether [start, end) meets the merged busy times. */
export function overlapsTimes(times: BusyTimes, start: number, end: number): boolean {
  const i = firstTimeEndingAfter(times, start);
  return i < times.length && (times.starts[i] as number) < end;
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
  private readonly input: StafferCalendarInput;
  private splitCache: SplitBusy | null = null;
  private timesCache: BusyTimes | null = null;
  /** Bookings only, sorted by start, with the longest one's length (made when first asked). */
  private booked: { starts: Float64Array; ends: Float64Array; longest: number } | null = null;
  private readonly msFrom = new Map<number, number>();
  private readonly week: WeekPattern;
  private readonly overrides: Map<number, { start: string; end: string }[]>;
  private readonly ownDays = new Map<number, Interval[]>();

  constructor(
    input: StafferCalendarInput,
    private readonly location: LocationRules,
    private readonly hours: WorkingHours = new WorkingHours(location.timezone),
  ) {
    this.id = input.id;
    this.input = input;
    this.week = hours.week(input.weekly);
    this.overrides = new Map(input.overrides.map((o) => [dayNumberOf(o.date), o.intervals]));
  }

  /** Busy time split into sessions of group services and the rest (seat questions); made when first asked. */
  get split(): SplitBusy {
    return (this.splitCache ??= splitBusy(this.input.busy));
  }

  /** All busy time merged, as parallel arrays: a plain search reads only this. */
  get times(): BusyTimes {
    return (this.timesCache ??= mergeBusyTimes(this.input.busy));
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

  /** Booked minutes inside [from, to), for fair auto-allocation. */
  bookedMinutes(from: number, to: number): number {
    return this.bookedMs(from, to) / MINUTE;
  }

  /** The same in milliseconds (a whole number); remembered per `from` of a day. */
  bookedMs(from: number, to: number): number {
    // A local midnight is a whole number of minutes: a small integer keys the memo quickly.
    const key = (from / MINUTE) | 0;
    const memo = to - from === 86_400_000 && key * MINUTE === from;
    const known = memo ? this.msFrom.get(key) : undefined;
    if (known !== undefined) return known;
    const { starts, ends, longest } = this.bookings();
    let ms = 0;
    // In start order: a booking reaching `from` starts at most the longest booking before it.
    let lo = 0;
    let hi = starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((starts[mid] as number) < from - longest) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < starts.length && (starts[i] as number) < to; i++)
      ms += Math.max(0, Math.min(ends[i] as number, to) - Math.max(starts[i] as number, from));
    if (memo) this.msFrom.set(key, ms);
    return ms;
  }

  /** Only carts ask for booked minutes: a plain search never builds these arrays. */
  private bookings(): { starts: Float64Array; ends: Float64Array; longest: number } {
    if (!this.booked) {
      const list = this.input.busy.filter((b: BusyInterval) => b.kind === "booking");
      if (!inStartOrder(list)) list.sort((a, b) => a.start - b.start);
      const starts = new Float64Array(list.length);
      const ends = new Float64Array(list.length);
      let longest = 0;
      for (let i = 0; i < list.length; i++) {
        const { start, end } = list[i] as Interval;
        starts[i] = start;
        ends[i] = end;
        if (end - start > longest) longest = end - start;
      }
      this.booked = { starts, ends, longest };
    }
    return this.booked;
  }

  get rules() {
    return this.location;
  }
}
