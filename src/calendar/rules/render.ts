import type { DaySlots, Interval, Slot } from "./types";
import { dateOfDayNumber, OffsetTable } from "./zone";

export interface ClockTime {
  start: string;
  /** Seconds from local midnight of the date the entry is listed under. */
  start_formatted: number;
  end: string;
  /** Also counted from that midnight, so an end after midnight exceeds 86 400 and reads e.g. "24:30". */
  end_formatted: number;
}

export interface DisplaySlot extends ClockTime {
  startMs: number;
  endMs: number;
  quantity: number;
}

/** What renderDays reads: a slot built by hand (a cart's fit) may leave quantity out (1). */
export type RenderableDay = Omit<DaySlots, "slots"> & {
  slots: (Pick<Slot, "start" | "end"> & { quantity?: number })[];
};

export interface DisplayDay {
  date: string;
  slots: DisplaySlot[];
  intervals: ClockTime[];
}

const hhmm = (seconds: number) => {
  const minutes = Math.floor(seconds / 60);
  return `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
};

/**
 * Slot-search results as the client's clock shows them: grouped by the
 * display zone's local date (which differs from the location's when the
 * client is elsewhere) with HH:MM and seconds-from-midnight values. Dates of
 * the search with nothing bookable stay in the list, empty.
 */
export function renderDays(days: RenderableDay[], displayTimezone: string): DisplayDay[] {
  const all = days.flatMap((d) => d.slots);
  const spanFrom = Math.min(...all.map((s) => s.start), Date.now());
  const spanTo = Math.max(...all.map((s) => s.end), Date.now());
  const zone = new OffsetTable(displayTimezone, spanFrom, spanTo);
  const clock = (i: Interval): { date: string; time: ClockTime } => {
    const { day, msOfDay } = zone.local(i.start);
    const startSec = Math.round(msOfDay / 1000);
    const endSec = startSec + Math.round((i.end - i.start) / 1000);
    return {
      date: dateOfDayNumber(day),
      time: {
        start: hhmm(startSec),
        start_formatted: startSec,
        end: hhmm(endSec),
        end_formatted: endSec,
      },
    };
  };
  const byDate = new Map<string, DisplayDay>(
    days.map((d) => [d.date, { date: d.date, slots: [], intervals: [] }]),
  );
  const dayFor = (date: string) => {
    let d = byDate.get(date);
    if (!d) {
      d = { date, slots: [], intervals: [] };
      byDate.set(date, d);
    }
    return d;
  };
  for (const day of days) {
    for (const slot of day.slots) {
      const { date, time } = clock(slot);
      dayFor(date).slots.push({
        ...time,
        startMs: slot.start,
        endMs: slot.end,
        quantity: slot.quantity ?? 1,
      });
    }
    for (const interval of day.intervals) {
      const { date, time } = clock(interval);
      dayFor(date).intervals.push(time);
    }
  }
  return [...byDate.values()].sort((a, b) => (a.date < b.date ? -1 : 1));
}
