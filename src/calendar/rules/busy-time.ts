import { type SplitBusy, splitBusy } from "./sessions";
import { type BusyTimes, inStartOrder, mergeBusyTimes } from "./merged-busy";
import type { BusyInterval, Interval, LocationRules, StafferCalendarInput } from "./types";
import { type WeekPattern, WorkingHours } from "./working-hours";
import { dateOfDayNumber, dayNumberOf } from "./zone";
import { MINUTE } from "../../platform/rules/duration";

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
