import { PreparedStaffer } from "./busy-time";
import { type PreparedResource, prepareResource } from "./resources";
import { RunCollector, type Runs } from "./free-runs";
import type { LocationRules, ResourceInput, StafferCalendarInput } from "./types";
import { WorkingHours } from "./working-hours";
import { OffsetTable } from "./zone";

const DAY = 86_400_000;

/** Candidates in id order and their keys: booked ms × width + id rank. */
interface AllocationKeys {
  staffers: PreparedStaffer[];
  keys: Float64Array;
  width: number;
}

/**
 * Calendars prepared once for many placements (a cart calendar's 62 days,
 * a cart next's 90, a 409's alternatives), with what those placements ask
 * again and again remembered: candidates in auto-allocation order per day,
 * and their free runs per span of days.
 */
export class Prepared {
  readonly staffers: Map<string, PreparedStaffer>;
  readonly resources: Map<string, PreparedResource>;
  readonly zone: OffsetTable;
  private readonly keys = new WeakMap<readonly string[], number>();
  private readonly lists = new Map<string, number>();
  private readonly byId = new WeakMap<readonly string[], PreparedStaffer[]>();
  private readonly orders = new Map<string, PreparedStaffer[]>();
  private readonly keysByList = new Map<number, Map<number, AllocationKeys | null>>();
  private readonly runs = new Map<string, Runs>();

  constructor(
    readonly location: LocationRules,
    staffers: StafferCalendarInput[],
    from: number,
    to: number,
    resources: ResourceInput[] = [],
  ) {
    const hours = new WorkingHours(location.timezone);
    this.staffers = new Map(staffers.map((s) => [s.id, new PreparedStaffer(s, location, hours)]));
    this.resources = new Map(resources.map((r) => [r.id, prepareResource(r)]));
    this.zone = new OffsetTable(location.timezone, from - DAY, to + DAY);
  }

  /**
   * A small number per distinct candidate list (the same array is looked up
   * once), so cache keys stay short: a key holding a hundred ids would be
   * hashed on every lookup.
   */
  listKey(ids: readonly string[]): number {
    let key = this.keys.get(ids);
    if (key === undefined) {
      const text = ids.join("\u0000");
      key = this.lists.get(text);
      if (key === undefined) this.lists.set(text, (key = this.lists.size));
      this.keys.set(ids, key);
    }
    return key;
  }

  /** The known candidates sorted by id: the order a group service's choice walks. */
  sortedById(ids: readonly string[]): PreparedStaffer[] {
    let list = this.byId.get(ids);
    if (!list) {
      list = [...ids].sort().flatMap((id) => {
        const staffer = this.staffers.get(id);
        return staffer ? [staffer] : [];
      });
      this.byId.set(ids, list);
    }
    return list;
  }

  /**
   * The known candidates (in id order) with their auto-allocation keys for
   * the local day starting at `from`: booked ms that day and the id rank
   * packed into one number, so the smallest key is the fewest booked
   * minutes, ties by id.
   */
  allocationKeys(ids: readonly string[], from: number): AllocationKeys | null {
    let byFrom = this.keysByList.get(this.listKey(ids));
    if (!byFrom) this.keysByList.set(this.listKey(ids), (byFrom = new Map()));
    let found = byFrom.get(from);
    if (found === undefined) {
      const staffers = this.sortedById(ids);
      let width = 1;
      while (width < staffers.length) width *= 2;
      const keys = new Float64Array(staffers.length);
      found = { staffers, keys, width };
      for (let i = 0; i < staffers.length; i++) {
        const ms = (staffers[i] as PreparedStaffer).bookedMs(from, from + DAY);
        // Overlapping seats can book a day many times over: then no packing, the full sort.
        if ((ms + 1) * width > Number.MAX_SAFE_INTEGER) found = null;
        keys[i] = ms * width + i;
      }
      byFrom.set(from, found);
    }
    return found;
  }

  /** The known candidates in auto-allocation order for the local day starting at `from`. */
  allocationOrder(ids: readonly string[], from: number): PreparedStaffer[] {
    const key = `${from}|${this.listKey(ids)}`;
    let order = this.orders.get(key);
    if (!order) {
      const packed = this.allocationKeys(ids, from);
      if (packed) {
        const { staffers, keys, width } = packed;
        order = Array.from(
          Float64Array.from(keys).sort(),
          (k) => staffers[k % width] as PreparedStaffer,
        );
      } else {
        // Stable: equal minutes keep the id order.
        order = [...this.sortedById(ids)].sort(
          (a, b) => a.bookedMs(from, from + DAY) - b.bookedMs(from, from + DAY),
        );
      }
      this.orders.set(key, order);
    }
    return order;
  }

  /**
   * The candidates' free runs inside their working hours on a local day, in
   * no order (whoever reads them marks them, which needs none). `plain`:
   * only the time outside group sessions counts as busy (a seat may join a
   * session). Kept per day: services sharing candidates share the work.
   */
  dayRuns(ids: readonly string[], day: number, plain: boolean): Runs {
    const key = `${day}${plain ? "p" : "a"}|${this.listKey(ids)}`;
    let runs = this.runs.get(key);
    if (!runs) {
      const collector = new RunCollector();
      for (const staffer of this.sortedById(ids)) {
        for (const work of staffer.workingOnDay(day)) {
          if (plain) collector.pushFreeOf(staffer.split.plain, work.start, work.end);
          else collector.pushFree(staffer.times, work.start, work.end);
        }
      }
      runs = collector.runs();
      this.runs.set(key, runs);
    }
    return runs;
  }
}

export function prepare(
  location: LocationRules,
  staffers: StafferCalendarInput[],
  from: number,
  to: number,
  resources: ResourceInput[] = [],
): Prepared {
  return new Prepared(location, staffers, from, to, resources);
}
