/**
 * Oracle for the resource work: the slot engine's searchSlots and
 * place/findCartStart exactly as they were before resources existed, copied
 * verbatim (imports aside), so property tests can prove staffer-only inputs
 * still give the same answers. Do not "fix" this file: it is the old behaviour.
 */
import {
  firstEndingAfter,
  instantConverter,
  PreparedStaffer,
} from "../../oracles/engine-before-scale/busy-time";
import { verdictFor } from "../../oracles/engine-before-scale/check";
import type {
  Interval,
  LocationRules,
  SlotSearchInput,
  StafferCalendarInput,
} from "../../../src/calendar/rules/types";
import { localDateRange, OffsetTable } from "../../../src/calendar/rules/zone";
import { MINUTE } from "../../../src/platform/rules/duration";

const DAY = 86_400_000;

export interface LegacySlot {
  start: number;
  end: number;
  stafferIds: string[];
}

export interface LegacyDaySlots {
  date: string;
  slots: LegacySlot[];
  intervals: Interval[];
}

export interface CartService {
  durationMin: number;
  bufferMin: number;
  stafferIds: string[];
}

export interface Assignment {
  stafferId: string;
  start: number;
  end: number;
}

export interface Prepared {
  staffers: Map<string, PreparedStaffer>;
  zone: OffsetTable;
  location: LocationRules;
}

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
 */
export function legacySearchSlots(input: Omit<SlotSearchInput, "resources">): LegacyDaySlots[] {
  const { location } = input;
  const toInstant = instantConverter(location.timezone);
  const staffers = [...input.staffers]
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((s) => new PreparedStaffer(s, location, toInstant));
  const need = (input.durationMin + input.bufferMin) * MINUTE;
  const length = input.durationMin * MINUTE;
  const step = Math.max(1, location.slotStepMin) * MINUTE;
  const earliest = input.now + location.minNoticeMin * MINUTE;

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
    const slots = [...free.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([start, stafferIds]) => ({ start, end: start + length, stafferIds }));
    return {
      date,
      slots,
      intervals: mergeSpans(slots.map((s) => ({ start: s.start, end: s.end }))),
    };
  });
}

export function prepare(
  location: LocationRules,
  staffers: StafferCalendarInput[],
  from: number,
  to: number,
): Prepared {
  const toInstant = instantConverter(location.timezone);
  return {
    staffers: new Map(staffers.map((s) => [s.id, new PreparedStaffer(s, location, toInstant)])),
    zone: new OffsetTable(location.timezone, from - DAY, to + DAY),
    location,
  };
}

/**
 * Places the services back to back from `start`: service i+1 starts when
 * service i's duration and buffer are over (the buffer is the room's and the
 * staffer's, so the client waits it out). Each service gets its fixed staffer
 * or, among free candidates, the one with the fewest booked minutes that local
 * day (ties by id). Time given to an earlier service counts as busy later on.
 */
export function place(
  p: Prepared,
  services: CartService[],
  start: number,
  now: number,
): Assignment[] | null {
  const extra = new Map<string, Interval[]>();
  const out: Assignment[] = [];
  let t = start;
  for (const service of services) {
    const need = (service.durationMin + service.bufferMin) * MINUTE;
    // Booked minutes count over the local day of this service's start.
    const from = t - p.zone.local(t).msOfDay;
    let best: { id: string; minutes: number } | null = null;
    for (const id of [...service.stafferIds].sort()) {
      const staffer = p.staffers.get(id);
      if (!staffer) continue;
      if (verdictFor(staffer, t, need, now, extra.get(id) ?? [], p.zone) !== "ok") continue;
      const minutes = staffer.bookedMinutes(from, from + DAY);
      if (!best || minutes < best.minutes) best = { id, minutes };
    }
    if (!best) return null;
    out.push({ stafferId: best.id, start: t, end: t + service.durationMin * MINUTE });
    extra.set(best.id, [...(extra.get(best.id) ?? []), { start: t, end: t + need }]);
    t += need;
  }
  return out;
}

export function findCartStart(args: {
  location: LocationRules;
  services: CartService[];
  staffers: StafferCalendarInput[];
  start: number;
  now: number;
}): Assignment[] | null {
  if (args.services.length === 0) return [];
  const p = prepare(args.location, args.staffers, args.start, args.start + 12 * DAY);
  return place(p, args.services, args.start, args.now);
}
