/** Days a rebuild window spans: its read and its write stay well under D1's limits at a year of 100 staffers. */
export const WINDOW_DAYS = 31;

/** Days first..last, both included. */
export interface DayWindow {
  first: number;
  last: number;
}

/**
 * The windows a location's rebuild writes, in order: consecutive windows over
 * the days its raw rows count on (`span`, null when none), then one window
 * from each day holding rollup rows not covered yet (stale rows are replaced
 * by what the raw rows say: nothing).
 */
export function rebuildWindows(
  span: DayWindow | null,
  rollupDays: readonly number[],
  size = WINDOW_DAYS,
): DayWindow[] {
  const windows: DayWindow[] = [];
  if (span)
    for (let first = span.first; first <= span.last; first += size)
      windows.push({ first, last: Math.min(first + size - 1, span.last) });
  const covered = (day: number) => windows.some((w) => day >= w.first && day <= w.last);
  for (const day of [...rollupDays].sort((a, b) => a - b)) {
    if (covered(day)) continue;
    // Up to the next window, so no day is written twice.
    const next = Math.min(...windows.filter((w) => w.first > day).map((w) => w.first));
    windows.push({ first: day, last: Math.min(day + size - 1, next - 1) });
  }
  return windows.sort((a, b) => a.first - b.first);
}

/** A window's two halves, for one whose write would not fit in a batch. */
export function halves(w: DayWindow): [DayWindow, DayWindow] | null {
  if (w.first === w.last) return null;
  const mid = Math.floor((w.first + w.last) / 2);
  return [
    { first: w.first, last: mid },
    { first: mid + 1, last: w.last },
  ];
}
