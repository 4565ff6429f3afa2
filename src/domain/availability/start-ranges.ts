import { type BusyTimes, firstEndingAfter, firstTimeEndingAfter } from "./busy-time";
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

/** Free runs [starts[i], ends[i]) of several calendars, in start order (parallel arrays, no objects). */
export interface Runs {
  starts: Float64Array;
  ends: Float64Array;
  length: number;
}

/** Collects free runs from many calendars, then orders them once. */
export class RunCollector {
  private starts = new Float64Array(64);
  private ends = new Float64Array(64);
  private n = 0;

  push(start: number, end: number) {
    if (this.n === this.starts.length) {
      const starts = new Float64Array(this.n * 2);
      const ends = new Float64Array(this.n * 2);
      starts.set(this.starts);
      ends.set(this.ends);
      this.starts = starts;
      this.ends = ends;
    }
    this.starts[this.n] = start;
    this.ends[this.n] = end;
    this.n++;
  }

  /** The free runs of merged busy times inside [from, to): one binary search, then a walk. */
  pushFree(busy: BusyTimes, from: number, to: number) {
    let t = from;
    for (let p = firstTimeEndingAfter(busy, from); t < to; p++) {
      if (p >= busy.length || (busy.starts[p] as number) >= to) {
        this.push(t, to);
        break;
      }
      const start = busy.starts[p] as number;
      if (start > t) this.push(t, start);
      t = Math.max(t, busy.ends[p] as number);
    }
  }

  /** The same for busy time held as intervals (a unit's, or a staffer's time outside sessions). */
  pushFreeOf(busy: readonly Interval[], from: number, to: number) {
    let t = from;
    for (let p = firstEndingAfter(busy, from); t < to; p++) {
      const b = busy[p];
      if (!b || b.start >= to) {
        this.push(t, to);
        break;
      }
      if (b.start > t) this.push(t, b.start);
      t = Math.max(t, b.end);
    }
  }

  /**
   * The runs in start order. Sorting packs each start (relative to the
   * earliest) and its index into one number and sorts those natively: no
   * comparator call per comparison, which is most of a comparator sort's cost.
   */
  sorted(): Runs {
    const n = this.n;
    let base = Number.POSITIVE_INFINITY;
    let top = Number.NEGATIVE_INFINITY;
    let ordered = true;
    for (let i = 0; i < n; i++) {
      const s = this.starts[i] as number;
      if (i > 0 && s < (this.starts[i - 1] as number)) ordered = false;
      if (s < base) base = s;
      if (s > top) top = s;
    }
    if (ordered) return { starts: this.starts, ends: this.ends, length: n };
    let width = 1;
    while (width < n) width *= 2;
    const keys = new Float64Array(n);
    if ((top - base + 1) * width < Number.MAX_SAFE_INTEGER) {
      for (let i = 0; i < n; i++) keys[i] = ((this.starts[i] as number) - base) * width + i;
      keys.sort();
    } else {
      const order = Array.from({ length: n }, (_, i) => i).sort(
        (a, b) => (this.starts[a] as number) - (this.starts[b] as number),
      );
      for (let i = 0; i < n; i++) keys[i] = order[i] as number;
      width = Number.POSITIVE_INFINITY;
    }
    const starts = new Float64Array(n);
    const ends = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const k = keys[i] as number;
      const index = width === Number.POSITIVE_INFINITY ? k : k % width;
      starts[i] = this.starts[index] as number;
      ends[i] = this.ends[index] as number;
    }
    return { starts, ends, length: n };
  }
}

/**
 * Where something of length `need` can start in one of the runs (in start
 * order, possibly overlapping: several calendars' runs together), as merged
 * ranges: run [s, e) admits the starts [s, e − need].
 */
export function startRangesOf(runs: Runs, need: number): StartRange[] {
  const out: StartRange[] = [];
  let last: StartRange | undefined;
  for (let i = 0; i < runs.length; i++) {
    const from = runs.starts[i] as number;
    const to = (runs.ends[i] as number) - need;
    if (to < from) continue;
    if (last && from <= last.to) {
      if (to > last.to) last.to = to;
    } else {
      last = { from, to };
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
