import { verdictFor } from "./check";
import type { PreparedStaffer } from "./busy-time";
import { type Prepared, prepare } from "./prepared";
import { firstFreeUnit, type PreparedResource } from "./resources";
import { sessionFit, sessionKey } from "./sessions";
import { possibleStarts } from "./cart-starts";
import type {
  CartService,
  Interval,
  LocationRules,
  ResourceInput,
  SessionAsk,
  StafferCalendarInput,
} from "./types";

export type { CartService } from "./types";
import { dateOfDayNumber, dayNumberOf, localDateRange, OffsetTable } from "./zone";
import { busyLength, MINUTE } from "../../platform/rules/duration";

export { type Prepared, prepare } from "./prepared";

const DAY = 86_400_000;

export interface Assignment {
  stafferId: string;
  start: number;
  end: number;
  /** The unit taken of each of the service's `resourceIds`, in that order. */
  unitIds: string[];
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
    const chosen = service.session
      ? chooseForSession(p, service, service.session, t, need, now, from, extra)
      : chooseStaffer(p, service, t, need, now, from, extra);
    if (!chosen) return null;
    const key = service.session && sessionKey(service.session.serviceId, chosen, t);
    const unitIds = takeUnits(p.resources, service.resourceIds ?? [], t, t + need, taken, key);
    if (!unitIds) return null;
    out.push({ stafferId: chosen, start: t, end: t + service.durationMin * MINUTE, unitIds });
    extra.set(chosen, [...(extra.get(chosen) ?? []), { start: t, end: t + need }]);
    t += need;
  }
  return out;
}

/**
 * The free candidate with the fewest booked minutes that day (ties by id).
 * The smallest keys are tried first, a few by selection (the least booked
 * are the likeliest free, and the day's starts were filtered to those with
 * someone free); past a few, the whole order once sorted. Either way the
 * first free one is what a scan of every candidate would choose.
 */
function chooseStaffer(
  p: Prepared,
  service: CartService,
  t: number,
  need: number,
  now: number,
  from: number,
  extra: ReadonlyMap<string, Interval[]>,
): string | null {
  const free = (staffer: PreparedStaffer) =>
    verdictFor(staffer, t, need, now, extra.get(staffer.id) ?? [], p.zone) === "ok";
  const packed = p.allocationKeys(service.stafferIds, from);
  if (packed) {
    const { staffers, keys } = packed;
    let floor = Number.NEGATIVE_INFINITY;
    for (let pick = 0; pick < SELECTIONS; pick++) {
      let best = -1;
      let bestKey = Number.POSITIVE_INFINITY;
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i] as number;
        if (k > floor && k < bestKey) {
          bestKey = k;
          best = i;
        }
      }
      const staffer = staffers[best];
      if (!staffer) return null;
      if (free(staffer)) return staffer.id;
      floor = bestKey;
    }
  }
  for (const staffer of p.allocationOrder(service.stafferIds, from))
    if (free(staffer)) return staffer.id;
  return null;
}

/** Candidates picked by selection before the whole order is sorted. */
const SELECTIONS = 4;

/** A group service fills an open session before it opens another one; then as `chooseStaffer`. */
function chooseForSession(
  p: Prepared,
  service: CartService,
  session: SessionAsk,
  t: number,
  need: number,
  now: number,
  from: number,
  extra: ReadonlyMap<string, Interval[]>,
): string | null {
  let best: { id: string; minutes: number; open: boolean } | null = null;
  for (const staffer of p.sortedById(service.stafferIds)) {
    const id = staffer.id;
    const mine = extra.get(id) ?? [];
    if (verdictFor(staffer, t, need, now, mine, p.zone, session) !== "ok") continue;
    const minutes = staffer.bookedMinutes(from, from + DAY);
    const fit = sessionFit(staffer.split, session, id, t, t + need, mine);
    const open = fit.verdict === "ok" && fit.taken > 0;
    if (!best || (open && !best.open) || (open === best.open && minutes < best.minutes))
      best = { id, minutes, open };
  }
  return best?.id ?? null;
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
 * among the starts `accept` lets through (all of them by default). Only the
 * `possibleStarts` are tried: at any other, some service has no free
 * candidate (or unit), so placing there could not succeed.
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
  const grid = gridOf(p, first.stafferIds, dayNumberOf(date));
  for (const t of possibleStarts(p, services, grid, now)) {
    const assignments = place(p, services, t, now);
    if (assignments && accept(t, assignments)) return { date, start: t, assignments };
  }
  return null;
}

/** The working intervals of the candidates on a local day, each distinct list once. */
export function gridOf(p: Prepared, ids: readonly string[], day: number): Interval[] {
  const lists = new Set<Interval[]>();
  for (const staffer of p.sortedById(ids)) lists.add(staffer.workingOnDay(day));
  return [...lists].flat();
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
