import { PreparedStaffer } from "./busy-time";
import { firstEndingAfter, firstStartingFrom, firstTimeEndingAfter } from "./merged-busy";
import { prepareResource, UnitCounter } from "./resources";
import { isSessionOf, type SessionTime } from "./sessions";
import type { DaySlots, Interval, SessionAsk, Slot, SlotSearchInput, StaffedSlot } from "./types";
import { latticeOf } from "./lattice";
import { WorkingHours } from "./working-hours";
import { dayNumberOf, localDateRange } from "./zone";
import { busyLength, MINUTE } from "../../platform/rules/duration";

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

/** mergeSpans of slots already in start order: one pass, no sort. */
function slotIntervals(slots: readonly Slot[]): Interval[] {
  const out: Interval[] = [];
  for (const s of slots) {
    const last = out[out.length - 1];
    if (last && s.start <= last.end) last.end = Math.max(last.end, s.end);
    else out.push({ start: s.start, end: s.end });
  }
  return out;
}

/**
 * Free slots per local date (docs/decisions.md, "Availability"): a start every `slotStep` minutes from
 * the start of each working interval; free for a staffer when
 * [t, t + duration + buffer) lies inside that interval and overlaps no busy
 * time; never before now + minimum notice.
 *
 * Cost is linear in staffers × days + busy intervals + free starts: each
 * staffer's working interval is cut into free runs by its merged busy time
 * (one pointer that only moves forward), and every grid start of a run adds
 * one to a counter array of the day indexed by time, so no start is looked
 * up in a map or tested against busy time on its own. Staffer ids per slot
 * are only listed when asked (`listStaffers`); the API needs the count.
 *
 * Required resources then cap each start's quantity at the free units of
 * each (one unit per booking, busy for the same duration + buffer), walked
 * with moving pointers too: O(starts × units).
 */
export function searchSlots(
  input: SlotSearchInput & { listStaffers: true },
): DaySlots<StaffedSlot>[];
export function searchSlots(input: SlotSearchInput): DaySlots[];
export function searchSlots(input: SlotSearchInput): DaySlots[] {
  const { location } = input;
  const hours = new WorkingHours(location.timezone);
  const staffers = [...input.staffers]
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((s) => new PreparedStaffer(s, location, hours));
  const need = busyLength(input.durationMin, input.bufferMin);
  const length = input.durationMin * MINUTE;
  const step = Math.max(1, location.slotStepMin) * MINUTE;
  const earliest = input.now + location.minNoticeMin * MINUTE;
  const units = input.resources ? new UnitCounter(input.resources.map(prepareResource)) : null;

  if (input.session) return searchSessions(input, input.session, staffers, units);

  // Each day's lattice first; then one staffer at a time walks all the days, its busy time
  // staying in cache, with one pointer that only moves forward.
  const days = localDateRange(input.fromDate, input.toDate).map((date) => {
    const day = dayNumberOf(date);
    // Each staffer's working intervals that day, by the staffer's place in `staffers`.
    const working = staffers.map((s) => s.workingOnDay(day));
    const lattice = latticeOf(working, step);
    return {
      date,
      working,
      lattice,
      // Free starts per time, as differences along each grid: a run adds two numbers, not one per start.
      counts: new Int32Array(lattice ? lattice.size + lattice.stride : 0),
      ids: input.listStaffers && lattice ? new Array<string[] | undefined>(lattice.size) : null,
    };
  });

  staffers.forEach((staffer, k) => {
    const times = staffer.times;
    const { starts, ends, length: busyCount } = times;
    let p = 0;
    for (const { working, lattice, counts, ids } of days) {
      if (!lattice) continue;
      const { lo, unit, stride } = lattice;
      for (const work of working[k] as Interval[]) {
        // Skip straight to the first grid start that honours the notice period.
        const skip = earliest > work.start ? Math.ceil((earliest - work.start) / step) : 0;
        let t = work.start + skip * step;
        const last = work.end - need;
        // Working intervals may overlap (overrides): step back when the pointer passed t.
        if (p > 0 && (ends[p - 1] as number) > t) p = firstTimeEndingAfter(times, t);
        while (t <= last) {
          while (p < busyCount && (ends[p] as number) <= t) p++;
          if (p < busyCount && (starts[p] as number) < t + need) {
            // Busy until its end: the first start after it on this interval's grid.
            t = work.start + Math.ceil(((ends[p] as number) - work.start) / step) * step;
            continue;
          }
          // Free from t up to the last start that still ends before the next busy time.
          const until = p < busyCount ? Math.min(last, (starts[p] as number) - need) : last;
          const n = Math.floor((until - t) / step);
          const first = ((t - lo) / unit) | 0;
          const after = first + (n + 1) * stride;
          counts[first] = (counts[first] as number) + 1;
          counts[after] = (counts[after] as number) - 1;
          if (ids) for (let at = first; at < after; at += stride) (ids[at] ??= []).push(staffer.id);
          t += (n + 1) * step;
        }
      }
    }
  });

  return days.map(({ date, lattice, counts, ids }) => {
    if (!lattice) return { date, slots: [], intervals: [] };
    const { lo, unit, size, stride } = lattice;
    for (let i = stride; i < size; i++)
      counts[i] = (counts[i] as number) + (counts[i - stride] as number);
    const slots: Slot[] = [];
    for (let i = 0; i < size; i++) {
      const free = counts[i] ?? 0;
      if (free === 0) continue;
      const start = lo + i * unit;
      const quantity = units ? units.minFree(start, need, free) : free;
      if (quantity === 0) continue;
      const slot: Slot = { start, end: start + length, quantity };
      if (ids) slot.stafferIds = ids[i] ?? [];
      slots.push(slot);
    }
    return { date, slots, intervals: slotIntervals(slots) };
  });
}

/**
 * The slots of a group service: per staffer, each grid start clear of
 * everything but the service's own session there; an open session offers
 * its seats left (none: not listed), a new one its capacity. A start's
 * quantity is the seats left over its staffers; new sessions need a free
 * unit of each required resource (an open session already has its units).
 *
 * Walked like the plain search: one forward pointer over the time outside
 * sessions (skipping whole busy stretches), one over the sessions, whose
 * key is only spelled out where a session meets the start.
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
  const days = localDateRange(input.fromDate, input.toDate).map((date) => {
    const day = dayNumberOf(date);
    const lattice = latticeOf(
      staffers.map((s) => s.workingOnDay(day)),
      step,
    );
    return {
      date,
      day,
      lattice,
      // New sessions per start, as differences along each grid (a run of them adds two numbers).
      fresh: new Int32Array(lattice ? lattice.size + lattice.stride : 0),
      open: new Int32Array(lattice ? lattice.size : 0),
      ids: input.listStaffers && lattice ? new Array<string[] | undefined>(lattice.size) : null,
    };
  });
  // One staffer at a time over all the days, as the plain search.
  for (const staffer of staffers) {
    const { plain, sessions, longest } = staffer.split;
    let p = 0;
    for (const { day, lattice, fresh, open, ids } of days) {
      if (!lattice) continue;
      const { lo, unit, stride } = lattice;
      for (const work of staffer.workingOnDay(day)) {
        const skip = earliest > work.start ? Math.ceil((earliest - work.start) / step) : 0;
        let t = work.start + skip * step;
        if (p > 0 && (plain[p - 1]?.end ?? 0) > t) p = firstEndingAfter(plain, t);
        let s = firstStartingFrom(sessions, t - longest);
        const last = work.end - need;
        while (t <= last) {
          while (p < plain.length && (plain[p] as Interval).end <= t) p++;
          const next = plain[p];
          if (next && next.start < t + need) {
            // Busy until next.end: the first start after it on this interval's grid.
            t = work.start + Math.ceil((next.end - work.start) / step) * step;
            continue;
          }
          while (s < sessions.length && (sessions[s] as SessionTime).start < t - longest) s++;
          let taken = 0;
          let met = false;
          // The first session starting after [t, t + need): none before it meets a later start.
          let later = Number.POSITIVE_INFINITY;
          for (let i = s; i < sessions.length; i++) {
            const session = sessions[i] as SessionTime;
            if (session.start >= t + need) {
              later = session.start;
              break;
            }
            if (session.end <= t) continue;
            met = true;
            if (!isSessionOf(session, ask.serviceId, staffer.id, t)) {
              taken = Number.POSITIVE_INFINITY;
              break;
            }
            taken += session.seats;
          }
          const at = ((t - lo) / unit) | 0;
          if (!met) {
            // Clear of everything up to the next busy time or session: new sessions all along.
            const until = Math.min(last, next ? next.start - need : last, later - need);
            const n = Math.floor((until - t) / step);
            const after = at + (n + 1) * stride;
            fresh[at] = (fresh[at] as number) + 1;
            fresh[after] = (fresh[after] as number) - 1;
            if (ids) for (let i = at; i < after; i += stride) (ids[i] ??= []).push(staffer.id);
            t += (n + 1) * step;
            continue;
          }
          // A session met here (even one of no seats) ends the run: this start alone.
          if (taken < ask.capacity) {
            if (taken > 0) open[at] = (open[at] as number) + ask.capacity - taken;
            else {
              fresh[at] = (fresh[at] as number) + 1;
              fresh[at + stride] = (fresh[at + stride] as number) - 1;
            }
            if (ids) (ids[at] ??= []).push(staffer.id);
          }
          t += step;
        }
      }
    }
  }
  return days.map(({ date, lattice, fresh, open, ids }) => {
    if (!lattice) return { date, slots: [], intervals: [] };
    const { lo, unit, size, stride } = lattice;
    for (let i = stride; i < size; i++)
      fresh[i] = (fresh[i] as number) + (fresh[i - stride] as number);
    const slots: Slot[] = [];
    for (let i = 0; i < size; i++) {
      const news = fresh[i] as number;
      const seats = open[i] as number;
      if (news === 0 && seats === 0 && !ids?.[i]) continue;
      const sessionsLeft = units && news > 0 ? units.minFree(lo + i * unit, need, news) : news;
      const quantity = seats + sessionsLeft * ask.capacity;
      if (quantity === 0) continue;
      const start = lo + i * unit;
      const slot: Slot = { start, end: start + length, quantity };
      if (ids) slot.stafferIds = ids[i] ?? [];
      slots.push(slot);
    }
    return { date, slots, intervals: slotIntervals(slots) };
  });
}
