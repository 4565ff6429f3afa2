import { firstEndingAfter, instantConverter, PreparedStaffer } from "./busy-time";
import { prepareResource, UnitCounter } from "./resources";
import { seatsTakenAt, sessionKey } from "./sessions";
import type {
  DaySlots,
  Interval,
  SessionAsk,
  Slot,
  SlotSearchInput,
} from "../../../src/calendar/rules/types";
import { localDateRange } from "../../../src/calendar/rules/zone";
import { busyLength, MINUTE } from "../../../src/platform/rules/duration";

/** Union of [start, end) spans, merging overlapping and touching ones. */
export function mergeSpans(spans: Interval[]): Interval[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  const out: Interval[] = [];
  for (const s of sorted) {
    const last = out[out.length - 1];
    if (last && s.start <= last.end) last.end = Math.max(last.end, s.end);
    else out.push({ ...s });
  }
  return out;
}

/**
 * Free slots per local date (docs/decisions.md, "Availability"): a start every `slotStep` minutes from
 * the start of each working interval; free for a staffer when
 * [t, t + duration + buffer) lies inside that interval and overlaps no busy
 * time; never before now + minimum notice. Each staffer's candidates are
 * walked in time order against its merged busy time with one moving pointer,
 * so a search costs O(candidates + busy intervals).
 *
 * Required resources then cap each start's quantity at the free units of
 * each (one unit per booking, busy for the same duration + buffer); only
 * starts that already have a free staffer are asked, and the units are walked
 * with moving pointers too, so resources add O(starts × units).
 */
export function searchSlots(input: SlotSearchInput): DaySlots[] {
  const { location } = input;
  const toInstant = instantConverter(location.timezone);
  const staffers = [...input.staffers]
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((s) => new PreparedStaffer(s, location, toInstant));
  const need = busyLength(input.durationMin, input.bufferMin);
  const length = input.durationMin * MINUTE;
  const step = Math.max(1, location.slotStepMin) * MINUTE;
  const earliest = input.now + location.minNoticeMin * MINUTE;
  const units = input.resources ? new UnitCounter(input.resources.map(prepareResource)) : null;

  if (input.session) return searchSessions(input, input.session, staffers, units);

  return localDateRange(input.fromDate, input.toDate).map((date) => {
    const free = new Map<number, string[]>();
    for (const staffer of staffers) {
      const busy = staffer.busy;
      for (const work of staffer.workingOn(date)) {
        // Skip straight to the first grid start that honours the notice period.
        const skip = earliest > work.start ? Math.ceil((earliest - work.start) / step) : 0;
        let p = firstEndingAfter(busy, work.start + skip * step);
        for (let t = work.start + skip * step; t + need <= work.end; t += step) {
          while (p < busy.length && (busy[p]?.end ?? 0) <= t) p++;
          const next = busy[p];
          if (next && next.start < t + need) continue;
          const ids = free.get(t);
          if (ids) ids.push(staffer.id);
          else free.set(t, [staffer.id]);
        }
      }
    }
    const slots: Slot[] = [];
    for (const [start, stafferIds] of [...free.entries()].sort((a, b) => a[0] - b[0])) {
      const quantity = units ? units.minFree(start, need, stafferIds.length) : stafferIds.length;
      if (quantity > 0) slots.push({ start, end: start + length, stafferIds, quantity });
    }
    return {
      date,
      slots,
      intervals: mergeSpans(slots.map((s) => ({ start: s.start, end: s.end }))),
    };
  });
}

/**
 * The slots of a group service: per staffer, each grid start clear of
 * everything but the service's own session there; an open session offers
 * its seats left (none: not listed), a new one its capacity. A start's
 * quantity is the seats left over its staffers; new sessions need a free
 * unit of each required resource (an open session already has its units).
 */
function searchSessions(
  input: SlotSearchInput,
  ask: SessionAsk,
  staffers: PreparedStaffer[],
  units: UnitCounter | null,
): DaySlots[] {
  const need = busyLength(input.durationMin, input.bufferMin);
  const length = input.durationMin * MINUTE;
  const step = Math.max(1, input.location.slotStepMin) * MINUTE;
  const earliest = input.now + input.location.minNoticeMin * MINUTE;
  return localDateRange(input.fromDate, input.toDate).map((date) => {
    const free = new Map<number, { stafferIds: string[]; open: number; fresh: number }>();
    for (const staffer of staffers) {
      for (const work of staffer.workingOn(date)) {
        const skip = earliest > work.start ? Math.ceil((earliest - work.start) / step) : 0;
        for (let t = work.start + skip * step; t + need <= work.end; t += step) {
          const taken = seatsTakenAt(
            staffer.split,
            sessionKey(ask.serviceId, staffer.id, t),
            t,
            t + need,
          );
          if (taken === null || taken >= ask.capacity) continue;
          let at = free.get(t);
          if (!at) free.set(t, (at = { stafferIds: [], open: 0, fresh: 0 }));
          at.stafferIds.push(staffer.id);
          if (taken > 0) at.open += ask.capacity - taken;
          else at.fresh++;
        }
      }
    }
    const slots: Slot[] = [];
    for (const [start, at] of [...free.entries()].sort((a, b) => a[0] - b[0])) {
      const sessions = units ? units.minFree(start, need, at.fresh) : at.fresh;
      const quantity = at.open + sessions * ask.capacity;
      if (quantity > 0)
        slots.push({ start, end: start + length, stafferIds: at.stafferIds, quantity });
    }
    return {
      date,
      slots,
      intervals: mergeSpans(slots.map((s) => ({ start: s.start, end: s.end }))),
    };
  });
}
