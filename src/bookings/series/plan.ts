import type { engineInputs } from "../../calendar/availability/engine-input";
import { type BusyInterval, nearestStarts, sessionAskOf } from "../../calendar/rules";
import { bufferOf } from "../../catalogue/rules/service-terms";
import { busyEnd } from "../../platform/rules/duration";
import { toIso } from "../../platform/clock";
import { type Alternative, ApiError, InvalidError } from "../../platform/errors";
import { type PlanContext, type PlannedBooking, placer } from "../../calendar/planning/planner";

type Inputs = NonNullable<ReturnType<typeof engineInputs>>;

/** Why an occurrence is not booked: its time is taken (bookings, blocked time, holds), or no one works then. */
export type UnbookedReason = "slot_unavailable" | "outside_working_hours";

export interface Unbooked {
  /** The occurrence's position in the series (0: the first start). */
  index: number;
  start: number;
  reason: UnbookedReason;
}

export interface SeriesPlan {
  planned: PlannedBooking[];
  unbooked: Unbooked[];
}

export interface SeriesService {
  serviceId: string;
  stafferId?: string | undefined;
  /** Seats of a group service in each occurrence's session (default 1). */
  quantity?: number | undefined;
}

/**
 * Places every occurrence of a series with the engine a single booking uses
 * (working hours, notice, busy and blocked time, holds, resources, each
 * placed occurrence busy for the later ones). One staffer serves every
 * occurrence when one can: the one asked for, else the first performer of
 * the service (in the location's order) who is free for every occurrence
 * that can be booked at all; otherwise each occurrence is auto-allocated as
 * a single booking would be. The first start is what the client typed: in
 * the past or outside every staffer's hours it is refused (422) as a single
 * booking's is; a later occurrence that cannot be booked is `unbooked`.
 */
function planSeries(
  starts: readonly number[],
  service: SeriesService,
  ctx: PlanContext,
): SeriesPlan {
  const indexes = starts.map((_, k) => k);
  /** Places the occurrences listed; `trying` one staffer, any refusal just means "not this one". */
  const pass = (stafferId: string | undefined, only: readonly number[], trying = false) => {
    const place = placer(ctx);
    const planned: PlannedBooking[] = [];
    const unbooked: Unbooked[] = [];
    for (const k of only) {
      const start = starts[k] ?? 0;
      try {
        const services = [{ serviceId: service.serviceId, stafferId, quantity: service.quantity }];
        planned.push(place({ start, services }, k));
      } catch (error) {
        unbooked.push({
          index: k,
          start,
          reason: trying ? "slot_unavailable" : reasonOf(error, k),
        });
        if (trying) break;
      }
    }
    return { planned, unbooked };
  };

  const each = pass(service.stafferId, indexes);
  if (service.stafferId || each.planned.length === 0) return each;
  const bookable = indexes.filter((k) => !each.unbooked.some((u) => u.index === k));
  for (const performer of ctx.performersOf(service.serviceId)) {
    const one = pass(performer.id, bookable, true);
    if (one.unbooked.length === 0) return { planned: one.planned, unbooked: each.unbooked };
  }
  return each;
}

/** A later occurrence's refusal as a reason; the first start's 422, and anything unexpected, are thrown. */
function reasonOf(error: unknown, index: number): UnbookedReason {
  // A full session is taken time for an occurrence (the body's reasons stay the reference's).
  if (
    error instanceof ApiError &&
    (error.code === "slot_unavailable" || error.code === "session_full")
  )
    return "slot_unavailable";
  if (error instanceof InvalidError && index > 0) return "outside_working_hours";
  throw error;
}

/**
 * Staff take the time of a publishable key's hold only when they must (as a
 * single booking does): a series that fits around holds is planned so; only
 * when occurrences would go unbooked is it planned over them, and that plan
 * is taken when it books more.
 */
export function planSeriesAround(
  starts: readonly number[],
  service: SeriesService,
  ctx: PlanContext,
  staff: boolean,
): SeriesPlan {
  const around = planSeries(starts, service, ctx);
  if (!staff || around.unbooked.length === 0) return around;
  const over = planSeries(starts, service, { ...ctx, overHolds: true });
  return over.unbooked.length < around.unbooked.length ? over : around;
}

/** An occurrence not booked, with up to 5 free starts near it (as a single booking's 409 offers). */
export interface UnbookedWithAlternatives {
  start: string;
  reason: UnbookedReason;
  alternatives: Alternative[];
}

/**
 * Free starts near each unbooked occurrence, from the planning read: the
 * series' own planned occurrences count as busy, so no alternative collides
 * with another occurrence of the same series.
 */
export function alternativesOfUnbooked(
  inputs: Inputs,
  ctx: PlanContext,
  service: SeriesService,
  plan: SeriesPlan,
): UnbookedWithAlternatives[] {
  const row = ctx.services.get(service.serviceId);
  if (!row) return [];
  const own = new Map<string, BusyInterval[]>();
  for (const booking of plan.planned)
    for (const s of booking.services) {
      const busy = {
        start: s.start,
        end: busyEnd(s.end, s.buffer),
        kind: "booking" as const,
        ...(s.session ? { session: s.session } : {}),
      };
      own.set(s.stafferId, [...(own.get(s.stafferId) ?? []), busy]);
    }
  const staffers = [...inputs.calendars.values()].map((c) => ({
    ...c,
    busy: [...c.busy, ...(own.get(c.id) ?? [])],
  }));
  const cart = [
    {
      durationMin: row.duration,
      bufferMin: bufferOf(row),
      stafferIds: service.stafferId
        ? [service.stafferId]
        : ctx.performersOf(row.id).map((p) => p.id),
      resourceIds: inputs.resourcesOf(row.id),
      session: sessionAskOf(row, service.quantity),
    },
  ];
  return plan.unbooked.map((u) => ({
    start: toIso(u.start),
    reason: u.reason,
    alternatives: nearestStarts({
      location: inputs.rules,
      staffers,
      services: cart,
      resources: inputs.resources,
      around: u.start,
      now: ctx.now,
      limit: 5,
      days: 7,
    }).map((a) => ({ start: toIso(a.start), staffer_uuid: a.stafferId })),
  }));
}
