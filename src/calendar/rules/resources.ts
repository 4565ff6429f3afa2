import { firstEndingAfter, overlapsMerged } from "./merged-busy";
import { seatsTakenAt, type SplitBusy, splitBusy } from "./sessions";
import type { Interval, ResourceInput } from "./types";

/** One unit with its busy time merged once, so each question is a binary search. */
export interface PreparedUnit {
  id: string;
  busy: Interval[];
  /** The same time split for sessions: a session's unit serves all its seats. */
  split: SplitBusy;
}

export interface PreparedResource {
  id: string;
  /** In the order they are tried: the first free one is taken. */
  units: PreparedUnit[];
}

export function prepareResource(resource: ResourceInput): PreparedResource {
  return {
    id: resource.id,
    units: resource.units.map((u) => {
      const split = splitBusy(u.busy);
      return { id: u.id, busy: split.all, split };
    }),
  };
}

/** Ids of the units free over [start, end), in the resource's order. */
export function freeUnits(resource: ResourceInput, start: number, end: number): string[] {
  return prepareResource(resource)
    .units.filter((u) => !overlapsMerged(u.busy, start, end))
    .map((u) => u.id);
}

/**
 * The first unit free over [start, end) that the caller has not already given
 * to an overlapping service (`taken`: unit id → time handed out so far). A
 * group service's seat (`session`, its key) takes the unit its session
 * already has, so a session holds one unit of each resource however many
 * seats it has.
 */
export function firstFreeUnit(
  resource: PreparedResource,
  start: number,
  end: number,
  taken: ReadonlyMap<string, readonly Interval[]>,
  session?: string,
): PreparedUnit | null {
  if (session) {
    for (const unit of resource.units) {
      const mine = taken.get(unit.id) ?? [];
      if ((seatsTakenAt(unit.split, session, start, end, mine) ?? 0) > 0) return unit;
    }
  }
  for (const unit of resource.units) {
    if (overlapsMerged(unit.busy, start, end)) continue;
    if ((taken.get(unit.id) ?? []).some((e) => e.start < end && start < e.end)) continue;
    return unit;
  }
  return null;
}

/**
 * Free units of each resource at many starts asked in increasing order: one
 * moving pointer per unit, so a whole search costs O(starts × units) on top
 * of the units' busy time, with no per-start binary search.
 */
export class UnitCounter {
  private readonly pointers: number[][];
  private last = Number.NEGATIVE_INFINITY;

  constructor(private readonly resources: PreparedResource[]) {
    this.pointers = resources.map((r) => r.units.map(() => 0));
  }

  /**
   * Smallest number of free units over the resources for [start, start + need),
   * at most `cap`. Starts are expected in increasing order; a step back costs
   * one binary search per unit.
   */
  minFree(start: number, need: number, cap: number): number {
    if (start < this.last) {
      this.resources.forEach((r, i) => {
        this.pointers[i] = r.units.map((u) => firstEndingAfter(u.busy, start));
      });
    }
    this.last = start;
    let least = cap;
    for (let r = 0; r < this.resources.length && least > 0; r++) {
      const units = this.resources[r]?.units ?? [];
      const pointers = this.pointers[r] ?? [];
      let free = 0;
      for (let u = 0; u < units.length && free < least; u++) {
        const busy = units[u]?.busy ?? [];
        let p = pointers[u] ?? 0;
        while (p < busy.length && (busy[p]?.end ?? 0) <= start) p++;
        pointers[u] = p;
        const next = busy[p];
        if (!next || next.start >= start + need) free++;
      }
      least = Math.min(least, free);
    }
    return least;
  }
}
