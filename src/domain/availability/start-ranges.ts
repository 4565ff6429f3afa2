import { firstEndingAfter } from "./busy-time";
import type { Interval } from "./types";

/**
 * Closed ranges [from, to] of instants at which something could start:
 * sorted, disjoint. They let a cart skip every start that cannot fit
 * without trying it: a day's ranges are built from free runs in time
 * linear in the busy intervals, whatever the number of grid starts.
 */
export interface StartRange {
  from: number;
  to: number;
}

/**
 * The free runs of merged busy time inside [from, to), appended to `out`:
 * one binary search, then a walk over the busy intervals in between.
 */
export function pushFreeRuns(busy: readonly Interval[], from: number, to: number, out: Interval[]) {
  let t = from;
  for (let p = firstEndingAfter(busy, from); t < to; p++) {
    const b = busy[p];
    if (!b || b.start >= to) {
      out.push({ start: t, end: to });
      break;
    }
    if (b.start > t) out.push({ start: t, end: b.start });
    t = Math.max(t, b.end);
  }
}

/**
 * Where something of length `need` can start in one of the runs (sorted by
 * start, possibly overlapping: several calendars' runs together), as merged
 * ranges: run [s, e) admits the starts [s, e − need].
 */
export function startRangesOf(runs: readonly Interval[], need: number): StartRange[] {
  const out: StartRange[] = [];
  let last: StartRange | undefined;
  for (const run of runs) {
    const to = run.end - need;
    if (to < run.start) continue;
    if (last && run.start <= last.to) {
      if (to > last.to) last.to = to;
    } else {
      last = { from: run.start, to };
      out.push(last);
    }
  }
  return out;
}

/** The starts x in `a` with x + shift in `b`: a ∩ (b − shift), by one merge walk. */
export function intersectShifted(
  a: readonly StartRange[],
  b: readonly StartRange[],
  shift: number,
): StartRange[] {
  const out: StartRange[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] as StartRange;
    const y = b[j] as StartRange;
    const from = Math.max(x.from, y.from - shift);
    const to = Math.min(x.to, y.to - shift);
    if (from <= to) out.push({ from, to });
    if (x.to < y.to - shift) i++;
    else j++;
  }
  return out;
}

/** Runs from several calendars in one list sorted by start (each calendar's own list is sorted). */
export function sortRuns(runs: Interval[]): Interval[] {
  return runs.sort((a, b) => a.start - b.start);
}
