/**
 * The date step's month: its days laid out in weeks, and which of them have free time.
 * Pure (calendar dates and Intl only), so the unit tests run it under Node.
 */
import type { CartSlots, SlotChoice, TimeSlots } from "./types";
import { addDays, localToUtc } from "./time";

/** `YYYY-MM` of a `YYYY-MM-DD` date. */
export const monthOf = (date: string) => date.slice(0, 7);

/** The month `n` months after `month` (`YYYY-MM`). */
export function addMonths(month: string, n: number): string {
  const [y, m] = month.split("-").map(Number) as [number, number];
  const d = new Date(Date.UTC(y, m - 1 + n, 1));
  return d.toISOString().slice(0, 7);
}

export const firstOfMonth = (month: string) => `${month}-01`;

export function lastOfMonth(month: string): string {
  return addDays(firstOfMonth(addMonths(month, 1)), -1);
}

/** Every date of the month, in order. */
export function daysOf(month: string): string[] {
  const days: string[] = [];
  for (let d = firstOfMonth(month); monthOf(d) === month; d = addDays(d, 1)) days.push(d);
  return days;
}

/** ISO weekday of a date: 1 = Monday … 7 = Sunday. */
export function weekday(date: string): number {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d)).getUTCDay() || 7;
}

/**
 * The month as weeks of seven cells, each a date of the month or null (a day of the
 * month before or after); `firstDay` is the weekday a week starts on (1 = Monday, 7 = Sunday).
 */
export function monthWeeks(month: string, firstDay: number): (string | null)[][] {
  const days = daysOf(month);
  const lead = (weekday(firstOfMonth(month)) - firstDay + 7) % 7;
  const cells: (string | null)[] = [...Array<null>(lead).fill(null), ...days];
  while (cells.length % 7 !== 0) cells.push(null);
  const weeks: (string | null)[][] = [];
  for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));
  return weeks;
}

/** The weekday a week starts on where `locale` is spoken (1 = Monday … 7 = Sunday). */
export function firstDayOfWeek(locale: string): number {
  try {
    const loc = new Intl.Locale(locale) as Intl.Locale & {
      getWeekInfo?: () => { firstDay: number };
      weekInfo?: { firstDay: number };
    };
    const info = loc.getWeekInfo?.() ?? loc.weekInfo;
    if (info) return info.firstDay;
    // Browsers without week info: the regions that start on Sunday, the language's likeliest.
    const region = loc.maximize().region ?? "";
    return ["US", "CA", "MX", "BR", "JP", "IL", "PH"].includes(region) ? 7 : 1;
  } catch {
    return 1;
  }
}

/**
 * The free times of each day of a single service's answer, in the customer's zone (the
 * search's `timezone`); a group service's start counts only with seats for the whole party.
 */
export function freeDaysOfSlots(res: TimeSlots, party: number): Map<string, SlotChoice[]> {
  const days = new Map<string, SlotChoice[]>();
  for (const d of res.dates) {
    const slots = d.slots
      .filter((s) => (s.quantity ?? 1) >= party)
      .map((s): SlotChoice => ({ start: localToUtc(d.date, s.start) }));
    if (slots.length > 0) days.set(d.date, slots);
  }
  return days;
}

/** A cart's answer: the first start on which every service fits, for each day it fits. */
export function freeDaysOfCart(res: CartSlots): Map<string, SlotChoice[]> {
  const days = new Map<string, SlotChoice[]>();
  for (const d of res.data[0]?.dates ?? [])
    days.set(d.date, [{ start: localToUtc(d.date, d.slot.start) }]);
  return days;
}

/** The first day of `days` on or after `from`, or null. */
export function firstFreeDay(days: Map<string, SlotChoice[]>, from: string): string | null {
  return [...days.keys()].filter((d) => d >= from).sort()[0] ?? null;
}

export type MoveKey = "ArrowLeft" | "ArrowRight" | "ArrowUp" | "ArrowDown" | "Home" | "End";

/**
 * Where the focus goes in a grid of `count` items laid out `columns` a row, from `index`
 * on a key; null for a key that moves nothing. Left/Right step one, Up/Down a row,
 * Home/End the first and last item (`homeEnd: "row"`: of the row, as a calendar's week).
 * The focus stays inside: a move past either end stays on the item it reached.
 */
export function moveIndex(
  key: string,
  index: number,
  count: number,
  columns: number,
  homeEnd: "all" | "row" = "all",
): number | null {
  if (count <= 0) return null;
  const last = count - 1;
  const cols = Math.max(1, columns);
  const clamp = (i: number) => Math.min(last, Math.max(0, i));
  switch (key) {
    case "ArrowLeft":
      return clamp(index - 1);
    case "ArrowRight":
      return clamp(index + 1);
    case "ArrowUp":
      return index - cols >= 0 ? index - cols : index;
    case "ArrowDown":
      return index + cols <= last ? index + cols : index;
    case "Home":
      return homeEnd === "row" ? index - (index % cols) : 0;
    case "End":
      return homeEnd === "row" ? clamp(index - (index % cols) + cols - 1) : last;
    default:
      return null;
  }
}
