import type { Interval } from "./types";

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
