import { type SplitBusy, splitBusy } from "./sessions";
import type {
  BusyInterval,
  Interval,
  LocationRules,
  StafferCalendarInput,
} from "../../../src/calendar/rules/types";
import { isoWeekday, localDateTimeToInstant } from "../../../src/calendar/rules/zone";
import { MINUTE } from "../../../src/platform/rules/duration";

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

export function overlapsMerged(merged: readonly Interval[], start: number, end: number): boolean {
  const hit = merged[firstEndingAfter(merged, start)];
  return hit !== undefined && hit.start < end;
}

/**
 * One staffer's calendar prepared for many questions: working intervals per
 * local date (converted once, DST-correct) and merged busy time.
 */
export class PreparedStaffer {
  readonly id: string;
  readonly busy: Interval[];
  /** The same busy time split into sessions of group services and the rest (seat questions). */
  readonly split: SplitBusy;
  private readonly bookings: BusyInterval[];
  private readonly working = new Map<string, Interval[]>();
  private readonly overrides: Map<string, { start: string; end: string }[]>;

  constructor(
    private readonly input: StafferCalendarInput,
    private readonly location: LocationRules,
    private readonly toInstant: (date: string, hhmm: string) => number,
  ) {
    this.id = input.id;
    this.split = splitBusy(input.busy);
    this.busy = this.split.all;
    this.bookings = input.busy.filter((b) => b.kind === "booking");
    this.overrides = new Map(input.overrides.map((o) => [o.date, o.intervals]));
  }

  workingOn(date: string): Interval[] {
    let intervals = this.working.get(date);
    if (!intervals) {
      const spec =
        this.overrides.get(date) ?? this.input.weekly.filter((w) => w.weekday === isoWeekday(date));
      intervals = spec
        .map((w) => ({ start: this.toInstant(date, w.start), end: this.toInstant(date, w.end) }))
        .filter((i) => i.end > i.start)
        .sort((a, b) => a.start - b.start);
      this.working.set(date, intervals);
    }
    return intervals;
  }

  /** Booked minutes inside [from, to), for fair auto-allocation. */
  bookedMinutes(from: number, to: number): number {
    let ms = 0;
    for (const b of this.bookings) ms += Math.max(0, Math.min(b.end, to) - Math.max(b.start, from));
    return ms / MINUTE;
  }

  get rules() {
    return this.location;
  }
}

/** A memoising local→UTC converter shared by every staffer of one search. */
export function instantConverter(timeZone: string) {
  const cache = new Map<string, number>();
  return (date: string, hhmm: string) => {
    const key = `${date}T${hhmm}`;
    let v = cache.get(key);
    if (v === undefined) {
      v = localDateTimeToInstant(date, hhmm, timeZone);
      cache.set(key, v);
    }
    return v;
  };
}
