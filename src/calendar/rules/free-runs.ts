import { type BusyTimes, firstEndingAfter, firstTimeEndingAfter } from "./merged-busy";
import type { Interval } from "./types";

/** Free runs [starts[i], ends[i]) of several calendars (parallel arrays, no objects). */
export interface Runs {
  starts: Float64Array;
  ends: Float64Array;
  length: number;
}

/** Collects the free runs of many calendars. */
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

  /** The runs collected, in no particular order. */
  runs(): Runs {
    return { starts: this.starts, ends: this.ends, length: this.n };
  }
}
