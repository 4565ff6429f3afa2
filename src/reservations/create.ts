import { commitPlanned, type Defer } from "../calendar/client";
import type { CalendarEntry } from "../calendar/types";
import { claimsOf, plannedEntries } from "../bookings/calendar-entries";
import { entryRows } from "../calendar/entry-rows";
import { loadPlanning, type PlanningRequest } from "../bookings/prepare";
import { bookingStart, type PlannedBooking, planItems } from "../bookings/planner";
import { stableIds } from "../bookings/plan-ids";
import { insertRows } from "../db/bounded";
import { isGuardFailure } from "../db/constraints";
import { guard } from "../db/guards";
import { holderBelowCap, holderHolds } from "../db/queries/reservations";
import { calendarEntries, reservations } from "../db/schema";
import type { Scope } from "../db/scope";
import {
  PUBLIC_HOLDS,
  publicHoldDurationProblems,
  publicHoldShapeProblems,
} from "../domain/public-holds";
import type { Env } from "../env";
import { toIso } from "../lib/clock";
import { ApiError, validationError } from "../lib/errors";
import { ClaimRetries } from "../bookings/claim-retries";
import type { HeldItem } from "../calendar/held-items";
import { renderReservation } from "./view";

export interface ReservationRequest extends PlanningRequest {
  ttlSeconds: number;
  /**
   * Made with a publishable key: `holder` names the visitor (key and client
   * address). Such a hold is bounded, capped per holder, and gives way to staff.
   */
  publishable?: { holder: string } | undefined;
}

/**
 * Holds the items' time (staffers resolved as a cart booking would) until
 * `expires_at`: one claim per calendar (staffers and resource units) and one D1 batch, like a
 * booking, but of `held` entries that stop counting at their expiry.
 */
export async function createReservation(
  deps: { scope: Scope; env: Env; defer?: Defer },
  req: ReservationRequest,
) {
  const { scope } = deps;
  const holder = req.publishable?.holder;
  if (holder) {
    const problems = publicHoldShapeProblems(req.items, req.ttlSeconds);
    if (Object.keys(problems).length > 0) throw validationError(problems);
  }
  // The holder's count is read beside the planning read: no round trip of its own.
  const [planning, holds] = await Promise.all([
    loadPlanning(scope, req),
    holder ? holderHolds(scope, holder, Date.now()) : null,
  ]);
  if (holder) {
    const problems = publicHoldDurationProblems(
      req.items.map((item) => ({
        services: item.services.map((s) => ({
          durationMin: planning.services.get(s.serviceId)?.duration ?? 0,
        })),
      })),
    );
    if (Object.keys(problems).length > 0) throw validationError(problems);
    if (holds && holds.live >= PUBLIC_HOLDS.perHolder) throw tooManyHolds(holds.firstExpiry);
  }
  try {
    return await hold(deps, req, planning);
  } catch (error) {
    if (!holder || !isGuardFailure(error)) throw error;
    // The cap's guard refused (holds made at the same moment), or a staff write took the time
    // and fenced this write: which one, the count says.
    const now = await holderHolds(scope, holder, Date.now());
    if (now.live >= PUBLIC_HOLDS.perHolder) throw tooManyHolds(now.firstExpiry);
    throw new ApiError("slot_unavailable", "The requested time is no longer available.");
  }
}

async function hold(
  deps: { scope: Scope; env: Env; defer?: Defer },
  req: ReservationRequest,
  { inputs, services }: Awaited<ReturnType<typeof loadPlanning>>,
) {
  const { scope, env } = deps;
  const holder = req.publishable?.holder ?? null;
  const now = Date.now();
  // Whole seconds, rounded down: the instant shown is the instant that counts.
  const expiresAt = Math.floor((now + req.ttlSeconds * 1000) / 1000) * 1000;
  const id = crypto.randomUUID();

  const retries = new ClaimRetries(inputs.busyOf);
  const ids = stableIds();
  const plan = () => {
    const planned = planItems(req.items, {
      rules: inputs.rules,
      services,
      performersOf: inputs.performersOf,
      resources: inputs.resources,
      resourcesOf: inputs.resourcesOf,
      now,
      ids,
    });
    const items = heldItemsOf(planned);
    const row = {
      id,
      workspaceId: scope.workspaceId,
      locationId: req.locationId,
      items: JSON.stringify(items),
      expiresAt,
      releasedAt: null,
      createdAt: now,
      keyKind: holder ? ("publishable" as const) : ("secret" as const),
      holder,
    };
    const entries = plannedEntries(planned, "held", id).map(({ calendarId, entry }) => ({
      calendarId,
      entry: {
        ...entry,
        expires: expiresAt,
        ...(holder ? { yields: true } : {}),
      } satisfies CalendarEntry,
    }));
    return {
      claims: claimsOf(entries),
      build: () => [
        // At most so many live holds per visitor, decided in the write itself (D1 runs one
        // batch at a time), so holds fired together cannot all pass a count read before.
        ...(holder
          ? [guard(scope, holderBelowCap(scope, holder, PUBLIC_HOLDS.perHolder, Date.now()))]
          : []),
        scope.db.insert(reservations).values(row),
        ...insertRows(
          scope.db,
          calendarEntries,
          entryRows({ workspaceId: scope.workspaceId, locationId: req.locationId }, entries),
        ),
      ],
      value: row,
    };
  };
  const row = await commitPlanned(env, scope.db, scope.workspaceId, plan(), deps.defer, {
    plan,
    // Another request won this staffer or unit: note it busy and let allocation pick another.
    replan: (refusal) => retries.learn(refusal),
  });
  return renderReservation(row);
}

/** 429 `too_many_holds`, with how long until the holder's first hold expires. */
function tooManyHolds(firstExpiry: number | null) {
  const wait = Math.max(1, Math.ceil(((firstExpiry ?? Date.now()) - Date.now()) / 1000));
  return new ApiError(
    "too_many_holds",
    `A visitor may hold at most ${PUBLIC_HOLDS.perHolder} reservations at once; book or delete one, or wait until one expires.`,
    { headers: { "retry-after": String(wait) } },
  );
}

/** The planned items as the reservation stores and shows them; planned ids become entry ids. */
function heldItemsOf(planned: PlannedBooking[]): HeldItem[] {
  return planned.map((b) => {
    return {
      datetime_start: toIso(bookingStart(b)),
      services: b.services.map((s) => ({
        service_uuid: s.serviceId,
        staffer_uuid: s.stafferId,
        starts_at: toIso(s.start),
        ends_at: toIso(s.end),
        entry_id: s.id,
        units: s.units.map((u) => ({
          calendar_id: u.calendarId,
          resource_uuid: u.resourceId,
          entry_id: u.entryId,
        })),
      })),
    };
  });
}
