import {
  type CartService,
  gridOf,
  place,
  type Prepared,
  prepare,
  type TakenUnits,
  takeUnits,
} from "./cart";
import { verdictFor } from "./check";
import { sessionKey } from "./sessions";
import type { Interval, LocationRules, ResourceInput, StafferCalendarInput } from "./types";
import { possibleStarts } from "./cart-starts";
import { dateOfDayNumber } from "./zone";
import { busyLength, MINUTE } from "../../platform/rules/duration";

const DAY = 86_400_000;

export interface AlternativeStart {
  start: number;
  /** Who would perform the first service at that start. */
  stafferId: string;
}

export interface AlternativesInput {
  location: LocationRules;
  staffers: StafferCalendarInput[];
  /** The services of one item, back to back from its start (as a cart places them). */
  services: CartService[];
  /**
   * A fixed layout instead (a booking being moved keeps its shape): each
   * service's offset from the start, performed by its one staffer (`stafferIds[0]`).
   */
  offsetsMs?: number[];
  /** The start that was asked for and refused. */
  around: number;
  now: number;
  limit?: number;
  /** How many local days either side of `around` to look at. */
  days?: number;
  /** Every resource any of the services requires. */
  resources?: ResourceInput[];
}

/**
 * Free starts near a refused one, for a 409's `alternatives`: every start on
 * the slot grid (the first service's staffers' working intervals, stepped by
 * the location's slot step) where the whole item fits, its first service
 * performed by a staffer on whose grid the start lies (so a single service's
 * alternatives are exactly starts the slot search lists); the refused start's
 * own local date first, then by distance from it; at most `limit`.
 */
export function nearestStarts(input: AlternativesInput): AlternativeStart[] {
  const limit = input.limit ?? 5;
  const days = input.days ?? 7;
  const { around, now } = input;
  const p = prepare(
    input.location,
    input.staffers,
    around - (days + 1) * DAY,
    around + (days + 13) * DAY,
    input.resources,
  );
  const anchor = anchorService(input);
  if (!anchor) return [];
  // A start is offered with the staffers on whose grid it lies, as the slot search lists it.
  const fits = input.offsetsMs
    ? fixedLayout(p, input.services, input.offsetsMs, now)
    : (t: number, owners: string[]) => {
        const [first, ...rest] = input.services;
        if (!first) return null;
        return (
          place(p, [{ ...first, stafferIds: owners }, ...rest], t, now)?.[0]?.stafferId ?? null
        );
      };
  const step = Math.max(1, input.location.slotStepMin) * MINUTE;
  const today = p.zone.local(around).day;
  const found: (AlternativeStart & { sameDay: boolean })[] = [];
  for (let day = today - days; day <= today + days; day++) {
    const date = dateOfDayNumber(day);
    // Starts where the item cannot fit are skipped without placing (a superset of what fits).
    const possible = input.offsetsMs
      ? null
      : new Set(possibleStarts(p, input.services, gridOf(p, anchor.service.stafferIds, day), now));
    if (possible?.size === 0) continue;
    const starts = new Map<number, string[]>();
    for (const id of anchor.service.stafferIds) {
      for (const work of p.staffers.get(id)?.workingOn(date) ?? []) {
        for (let t = work.start; t < work.end; t += step) {
          const start = t - anchor.offset;
          if (start === around || start < now || (possible && !possible.has(start))) continue;
          const owners = starts.get(start);
          if (owners) owners.push(id);
          else starts.set(start, [id]);
        }
      }
    }
    for (const [start, owners] of starts) {
      const stafferId = fits(start, owners);
      if (stafferId) found.push({ start, stafferId, sameDay: day === today });
    }
  }
  return found
    .sort(
      (a, b) =>
        Number(b.sameDay) - Number(a.sameDay) ||
        Math.abs(a.start - around) - Math.abs(b.start - around) ||
        a.start - b.start,
    )
    .slice(0, limit)
    .map(({ start, stafferId }) => ({ start, stafferId }));
}

/** The service that opens the item: its staffers' working hours give the grid of starts. */
export function anchorService(input: Pick<AlternativesInput, "services" | "offsetsMs">) {
  if (!input.offsetsMs) {
    const first = input.services[0];
    return first ? { service: first, offset: 0 } : null;
  }
  const offsets = input.offsetsMs;
  const earliest = Math.min(...offsets);
  const index = offsets.indexOf(earliest);
  const service = input.services[index];
  return service ? { service, offset: earliest } : null;
}

/**
 * Whether every service fits its own staffer, and a unit of each resource it
 * requires, at start + its offset; answers the opener's staffer.
 */
export function fixedLayout(p: Prepared, services: CartService[], offsets: number[], now: number) {
  return (start: number, _owners: string[]): string | null => {
    const extra = new Map<string, Interval[]>();
    const taken: TakenUnits = new Map();
    let opener: { at: number; id: string } | null = null;
    for (const [i, service] of services.entries()) {
      const id = service.stafferIds[0];
      const staffer = id ? p.staffers.get(id) : undefined;
      if (!id || !staffer) return null;
      const at = start + (offsets[i] ?? 0);
      const need = busyLength(service.durationMin, service.bufferMin);
      const mine = extra.get(id) ?? [];
      if (verdictFor(staffer, at, need, now, mine, p.zone, service.session) !== "ok") return null;
      const key = service.session && sessionKey(service.session.serviceId, id, at);
      if (!takeUnits(p.resources, service.resourceIds ?? [], at, at + need, taken, key))
        return null;
      extra.set(id, [...(extra.get(id) ?? []), { start: at, end: at + need }]);
      if (!opener || at < opener.at) opener = { at, id };
    }
    return opener?.id ?? null;
  };
}
