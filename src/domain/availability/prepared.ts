import { PreparedStaffer } from "./busy-time";
import { type PreparedResource, prepareResource } from "./resources";
import { pushFreeRuns, sortRuns } from "./start-ranges";
import type { Interval, LocationRules, ResourceInput, StafferCalendarInput } from "./types";
import { WorkingHours } from "./working-hours";
import { OffsetTable } from "./zone";

const DAY = 86_400_000;

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
  private readonly keys = new WeakMap<readonly string[], string>();
  private readonly byId = new WeakMap<readonly string[], PreparedStaffer[]>();
  private readonly orders = new Map<string, PreparedStaffer[]>();
  private readonly runs = new Map<string, Interval[]>();

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

  /** One text per candidate list (the same array is keyed once). */
  private keyOf(ids: readonly string[]): string {
    let key = this.keys.get(ids);
    if (key === undefined) {
      key = ids.join("\u0000");
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
   * The known candidates in auto-allocation order for the local day starting
   * at `from`: fewest booked minutes that day first, ties by id. The first
   * free one of this list is the one a full scan would choose.
   */
  allocationOrder(ids: readonly string[], from: number): PreparedStaffer[] {
    const key = `${from}|${this.keyOf(ids)}`;
    let order = this.orders.get(key);
    if (!order) {
      const ranked = this.sortedById(ids).map((staffer) => ({
        staffer,
        minutes: staffer.bookedMinutes(from, from + DAY),
      }));
      // Stable: equal minutes keep the id order.
      order = ranked.sort((a, b) => a.minutes - b.minutes).map((r) => r.staffer);
      this.orders.set(key, order);
    }
    return order;
  }

  /**
   * The candidates' free runs inside their working hours on local days
   * `fromDay`..`toDay`, all in one list sorted by start. `plain`: only the
   * time outside group sessions counts as busy (a seat may join a session).
   */
  freeRuns(ids: readonly string[], fromDay: number, toDay: number, plain: boolean): Interval[] {
    const key = `${fromDay}-${toDay}${plain ? "p" : "a"}|${this.keyOf(ids)}`;
    let runs = this.runs.get(key);
    if (!runs) {
      runs = [];
      for (const staffer of this.sortedById(ids)) {
        const busy = plain ? staffer.split.plain : staffer.busy;
        for (let day = fromDay; day <= toDay; day++) {
          for (const work of staffer.workingOnDay(day))
            pushFreeRuns(busy, work.start, work.end, runs);
        }
      }
      sortRuns(runs);
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
