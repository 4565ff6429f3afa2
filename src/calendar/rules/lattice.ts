import type { Interval } from "./types";

export const greatestCommonDivisor = (a: number, b: number): number => {
  let x = Math.abs(a);
  let y = Math.abs(b);
  while (y) {
    const r = x % y;
    x = y;
    y = r;
  }
  return x;
};

/**
 * The times of a day's slot grids as indexes of one array: instant
 * lo + k·unit, where `unit` divides the slot step and the distance between
 * any two working intervals' starts, so every grid start is an index and
 * per-time counts need no map. A day holds at most 90,000 seconds and zone
 * offsets are whole seconds, so the array stays small.
 */
export interface Lattice {
  lo: number;
  hi: number;
  unit: number;
  /** Indexes 0..size-1 reach every time from lo to hi, both included. */
  size: number;
  /** Indexes between a grid's consecutive starts. */
  stride: number;
}

export function latticeOf(intervals: Iterable<readonly Interval[]>, step: number): Lattice | null {
  // Differences from any one start share the divisor of differences from the earliest.
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  let unit = step;
  for (const list of intervals) {
    for (const work of list) {
      if (lo === Number.POSITIVE_INFINITY) lo = work.start;
      unit = greatestCommonDivisor(unit, work.start - lo);
      if (work.start < lo) lo = work.start;
      if (work.end > hi) hi = work.end;
    }
  }
  if (lo >= hi) return null;
  return {
    lo,
    hi,
    unit,
    size: Math.floor((hi - lo) / unit) + 1,
    // Small integers: typed-array indexes stay integers.
    stride: (step / unit) | 0,
  };
}
