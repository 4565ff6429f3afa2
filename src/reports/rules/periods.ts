import { dateOfDay, monthOf, weekOf } from "./days";

/** Groupings by period: every period of the range is listed, empty ones included. */
export type Period = "day" | "week" | "month";

/** One period of a range: its key, its label and the day numbers it holds inside the range. */
export interface PeriodGroup {
  key: string;
  label: string;
  first: number;
  last: number;
}

const keyOf = (period: Period, day: number): string =>
  period === "day" ? dateOfDay(day) : period === "week" ? dateOfDay(weekOf(day)) : monthOf(day);

const labelOf = (period: Period, key: string): string =>
  period === "week" ? `Week of ${key}` : key;

/**
 * The periods of days `from`..`to` in order: a week is keyed by its Monday,
 * a month `YYYY-MM`; the first and last may be cut by the range.
 */
export function periodsOf(period: Period, from: number, to: number): PeriodGroup[] {
  const groups: PeriodGroup[] = [];
  for (let day = from; day <= to; day++) {
    const key = keyOf(period, day);
    const last = groups[groups.length - 1];
    if (last && last.key === key) last.last = day;
    else groups.push({ key, label: labelOf(period, key), first: day, last: day });
  }
  return groups;
}

/** The period key a day falls in. */
export const periodKeyOf = keyOf;

/** A share to 4 decimals; null when there is nothing to divide by. */
export const rate = (part: number, whole: number): number | null =>
  whole === 0 ? null : Math.round((part / whole) * 10_000) / 10_000;

/** Groups other than periods: ordered by label, then key (a stable order for equal names). */
export const byLabel = <T extends { key: string | null; label: string }>(a: T, b: T): number =>
  a.label.localeCompare(b.label, "en") || (a.key ?? "").localeCompare(b.key ?? "");
