import { instantConverter, PreparedStaffer } from "./busy-time";
import { verdictFor } from "./check";
import { sessionFit, sessionKey } from "./sessions";
import { firstFreeUnit, type PreparedResource, prepareResource } from "./resources";
import type {
  Interval,
  LocationRules,
  ResourceInput,
  SessionAsk,
  StafferCalendarInput,
} from "../../../src/calendar/rules/types";
import {
  dateOfDayNumber,
  dayNumberOf,
  localDateRange,
  OffsetTable,
} from "../../../src/calendar/rules/zone";
import { busyLength, MINUTE } from "../../../src/platform/rules/duration";

const DAY = 86_400_000;

export interface CartService {
  durationMin: number;
  bufferMin: number;
  /** Candidates: one id when the client fixed the staffer. */
  stafferIds: string[];
  /** Resources the service requires: one unit of each for its duration + buffer. */
  resourceIds?: string[];
  /** A group service: joins (or opens) the session at its start. */
  session?: SessionAsk | undefined;
}

export interface Assignment {
  stafferId: string;
  start: number;
  end: number;
  /** The unit taken of each of the service's `resourceIds`, in that order. */
  unitIds: string[];
}

export interface Prepared {
  staffers: Map<string, PreparedStaffer>;
  resources: Map<string, PreparedResource>;
  zone: OffsetTable;
  location: LocationRules;
}

/** Units handed out so far in one placement: resource id → unit id → time. */
export type TakenUnits = Map<string, Map<string, Interval[]>>;

/**
 * The first free unit of each resource over [start, end), counting and
 * recording units already taken in this placement; null when a resource is
 * unknown or has no free unit.
 */
export function takeUnits(
  resources: ReadonlyMap<string, PreparedResource>,
  resourceIds: readonly string[],
  start: number,
  end: number,
  taken: TakenUnits,
  /** A group service's session: the unit it already has is shared, not taken again. */
  session?: string,
): string[] | null {
  const out: string[] = [];
  for (const rid of resourceIds) {
    const resource = resources.get(rid);
    if (!resource) return null;
    let mine = taken.get(rid);
    if (!mine) taken.set(rid, (mine = new Map()));
    const unit = firstFreeUnit(resource, start, end, mine, session);
    if (!unit) return null;
    // Recorded at once, so a resource named twice takes two different units.
    mine.set(unit.id, [...(mine.get(unit.id) ?? []), { start, end }]);
    out.push(unit.id);
  }
  return out;
}

export function prepare(
  location: LocationRules,
  staffers: StafferCalendarInput[],
  from: number,
  to: number,
  resources: ResourceInput[] = [],
): Prepared {
  const toInstant = instantConverter(location.timezone);
  return {
    staffers: new Map(staffers.map((s) => [s.id, new PreparedStaffer(s, location, toInstant)])),
    resources: new Map(resources.map((r) => [r.id, prepareResource(r)])),
    zone: new OffsetTable(location.timezone, from - DAY, to + DAY),
    location,
  };
}

/**
 * Places the services back to back from `start`: service i+1 starts when
 * service i's duration and buffer are over (the buffer is the room's and the
 * staffer's, so the client waits it out). Each service gets its fixed staffer
 * or, among free candidates, the one with the fewest booked minutes that local
 * day (ties by id), and the first free unit (in the resource's order) of each
 * resource it requires. Time given to an earlier service counts as busy later
 * on, for staffers and units alike.
 */
export function place(
  p: Prepared,
  services: CartService[],
  start: number,
  now: number,
): Assignment[] | null {
  const extra = new Map<string, Interval[]>();
  const taken: TakenUnits = new Map();
  const out: Assignment[] = [];
  let t = start;
  for (const service of services) {
    const need = busyLength(service.durationMin, service.bufferMin);
    // Booked minutes count over the local day of this service's start.
    const from = t - p.zone.local(t).msOfDay;
    let best: { id: string; minutes: number; open: boolean } | null = null;
    for (const id of [...service.stafferIds].sort()) {
      const staffer = p.staffers.get(id);
      if (!staffer) continue;
      const mine = extra.get(id) ?? [];
      if (verdictFor(staffer, t, need, now, mine, p.zone, service.session) !== "ok") continue;
      const minutes = staffer.bookedMinutes(from, from + DAY);
      // A group service fills an open session before it opens another one.
      const fit =
        service.session && sessionFit(staffer.split, service.session, id, t, t + need, mine);
      const open = fit ? fit.verdict === "ok" && fit.taken > 0 : false;
      if (!best || (open && !best.open) || (open === best.open && minutes < best.minutes))
        best = { id, minutes, open };
    }
    if (!best) return null;
    const key = service.session && sessionKey(service.session.serviceId, best.id, t);
    const unitIds = takeUnits(p.resources, service.resourceIds ?? [], t, t + need, taken, key);
    if (!unitIds) return null;
    out.push({ stafferId: best.id, start: t, end: t + service.durationMin * MINUTE, unitIds });
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
  /** Every resource any service of the cart requires. */
  resources?: ResourceInput[];
}): Assignment[] | null {
  if (args.services.length === 0) return [];
  const p = prepare(
    args.location,
    args.staffers,
    args.start,
    args.start + 12 * DAY,
    args.resources,
  );
  return place(p, args.services, args.start, args.now);
}

export interface CartDay {
  date: string;
  start: number;
  assignments: Assignment[];
}

/**
 * The first grid start of the first service that fits the whole cart on a local date,
 * among the starts `accept` lets through (all of them by default).
 */
export function firstFitOn(
  p: Prepared,
  date: string,
  services: CartService[],
  now: number,
  accept: (start: number, assignments: Assignment[]) => boolean = () => true,
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
    if (assignments && accept(t, assignments)) return { date, start: t, assignments };
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
  resources?: ResourceInput[];
}): CartDay[] {
  const from = dayNumberOf(args.fromDate) * DAY - DAY;
  const to = dayNumberOf(args.toDate) * DAY + 13 * DAY;
  const p = prepare(args.location, args.staffers, from, to, args.resources);
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
    resources?: ResourceInput[];
  },
  maxDays = 90,
): CartDay | null {
  const today = dayNumberOf(
    new OffsetTable(args.location.timezone, args.now, args.now).localDate(args.now),
  );
  const p = prepare(
    args.location,
    args.staffers,
    today * DAY - DAY,
    (today + maxDays + 13) * DAY,
    args.resources,
  );
  for (let d = today; d < today + maxDays; d++) {
    const fit = firstFitOn(p, dateOfDayNumber(d), args.services, args.now);
    if (fit) return fit;
  }
  return null;
}
