import { instantConverter, PreparedStaffer } from "./busy-time";
import { verdictFor } from "./check";
import type { Interval, LocationRules, StafferCalendarInput } from "./types";
import { dateOfDayNumber, dayNumberOf, localDateRange, OffsetTable } from "./zone";
import { MINUTE } from "../duration";

const DAY = 86_400_000;

export interface CartService {
  durationMin: number;
  bufferMin: number;
  /** Candidates: one id when the client fixed the staffer. */
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

export interface CartDay {
  date: string;
  start: number;
  assignments: Assignment[];
}

/** The first grid start of the first service that fits the whole cart, per local date. */
function firstFitOn(
  p: Prepared,
  date: string,
  services: CartService[],
  now: number,
): CartDay | null {
  const first = services[0];
  if (!first) return null;
  const step = Math.max(1, p.location.slotStepMin) * MINUTE;
  const starts = new Set<number>();
  for (const id of first.stafferIds) {
    for (const work of p.staffers.get(id)?.workingOn(date) ?? []) {
      for (let t = work.start; t < work.end; t += step) if (t >= now) starts.add(t);
    }
  }
  for (const t of [...starts].sort((a, b) => a - b)) {
    const assignments = place(p, services, t, now);
    if (assignments) return { date, start: t, assignments };
  }
  return null;
}

export function firstCartFitPerDay(args: {
  location: LocationRules;
  services: CartService[];
  staffers: StafferCalendarInput[];
  fromDate: string;
  toDate: string;
  now: number;
}): CartDay[] {
  const from = dayNumberOf(args.fromDate) * DAY - DAY;
  const to = dayNumberOf(args.toDate) * DAY + 13 * DAY;
  const p = prepare(args.location, args.staffers, from, to);
  return localDateRange(args.fromDate, args.toDate)
    .map((date) => firstFitOn(p, date, args.services, args.now))
    .filter((d): d is CartDay => d !== null);
}

/** The nearest date, from today in the location's zone, on which the cart fits (at most `maxDays`). */
export function nextCartFit(
  args: {
    location: LocationRules;
    services: CartService[];
    staffers: StafferCalendarInput[];
    now: number;
  },
  maxDays = 90,
): CartDay | null {
  const today = dayNumberOf(
    new OffsetTable(args.location.timezone, args.now, args.now).localDate(args.now),
  );
  const p = prepare(args.location, args.staffers, today * DAY - DAY, (today + maxDays + 13) * DAY);
  for (let d = today; d < today + maxDays; d++) {
    const fit = firstFitOn(p, dateOfDayNumber(d), args.services, args.now);
    if (fit) return fit;
  }
  return null;
}
