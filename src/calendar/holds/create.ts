import { commitPlanned, type Defer } from "../client";
import type { CalendarEntry } from "../types";
import { claimsOf, plannedEntries } from "../planning/calendar-entries";
import { entryRows } from "../entry-rows";
import { loadPlanning, type PlanningRequest } from "../planning/prepare";
import { bookingStart, type PlannedBooking, planItems } from "../planning/planner";
import { stableIds } from "../planning/plan-ids";
import { insertRows } from "../../db/bounded";
import { producing } from "../../db/effects";
import { freedByHold, freedEffects } from "../../db/queries/freed-time";
import { isGuardFailure } from "../../db/constraints";
import { holderHolds, holderWithinCap } from "../queries/reservations";
import { type QuotaSpec, retryAfter, VisitorQuota } from "../planning/visitor-quota";
import { calendarEntries } from "../../db/schema";
import { insertReservation } from "../queries/holds";
import type { Scope } from "../../db/scope";
import type { Statement } from "../../db/statement";
import {
  type HoldSubject,
  PUBLIC_HOLDS,
  publicHoldDurationProblems,
  publicHoldShapeProblems,
} from "../../platform/rules/public-holds";
import type { Env } from "../../platform/env";
import { toIso } from "../../platform/clock";
import { ApiError, InvalidError } from "../../platform/errors";
import { ClaimRetries } from "../planning/claim-retries";
import type { HeldItem } from "../held-items";
import { renderReservation } from "./view";
import { visitPaymentTerms } from "../../catalogue/rules/service-payment";

/** What a hold request can be wrong about (422, `InvalidError`): its items, its ttl. */
export type ReservationSubject = HoldSubject;

export interface ReservationRequest extends PlanningRequest {
  ttlSeconds: number;
  /** The workspace's currency: what its payment terms are in. */
  currency: string;
  /**
   * Made with a publishable key: `holder` names the visitor (key and client
   * address). Such a hold is bounded, capped per holder, and gives way to staff.
   */
  publishable?: { holder: string } | undefined;
  /**
   * A waitlist offer: the hold gives way to staff as a widget's does (the
   * front desk is never kept from a walk-in by it), and `statements` (the
   * entry's, its messages and event) go into the hold's own batch. `holder`:
   * the entry was joined through a publishable key, and its offer is that
   * visitor's hold (counted among its live holds; the statements bound it).
   */
  offer?:
    | {
        holder?: string | undefined;
        statements: (
          reservationId: string,
          planned: PlannedBooking[],
          expiresAt: number,
        ) => Statement[];
      }
    | undefined;
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
    if (problems.length > 0) throw new InvalidError(problems);
  }
  // The holder's count is read beside the planning read: no round trip of its own.
  const [planning, quota] = await Promise.all([
    loadPlanning(scope, req),
    VisitorQuota.read(scope, holder ? holdQuota(scope, holder) : null),
  ]);
  if (holder) {
    const problems = publicHoldDurationProblems(
      req.items.map((item) => ({
        services: item.services.map((s) => ({
          durationMin: planning.services.get(s.serviceId)?.duration ?? 0,
        })),
      })),
    );
    if (problems.length > 0) throw new InvalidError(problems);
    quota?.check(1);
  }
  try {
    return await hold(deps, req, planning, quota);
  } catch (error) {
    if (!quota || !isGuardFailure(error)) throw error;
    // The cap's guard refused (holds made at the same moment), or a staff write took the time
    // and fenced this write: which one, the count says.
    await quota.explain(error, 1);
    throw new ApiError("slot_unavailable", "The requested time is no longer available.");
  }
}

async function hold(
  deps: { scope: Scope; env: Env; defer?: Defer },
  req: ReservationRequest,
  { inputs, services }: Awaited<ReturnType<typeof loadPlanning>>,
  quota: VisitorQuota | null,
) {
  const { scope, env } = deps;
  const holder = req.publishable?.holder ?? req.offer?.holder ?? null;
  const now = Date.now();
  // Whole seconds, rounded down: the instant shown is the instant that counts.
  const expiresAt = Math.floor((now + req.ttlSeconds * 1000) / 1000) * 1000;
  const id = crypto.randomUUID();
  // Fixed now: a policy changed later never touches it (a checkout charges exactly this).
  const payment = visitPaymentTerms(
    req.items.flatMap((item) =>
      item.services.flatMap((s) => {
        const service = services.get(s.serviceId);
        return service ? [{ service, quantity: s.quantity ?? 1 }] : [];
      }),
    ),
    req.currency,
  );

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
      payment,
    };
    const entries = plannedEntries(planned, "held", id).map(({ calendarId, entry }) => ({
      calendarId,
      entry: {
        ...entry,
        expires: expiresAt,
        ...(holder || req.offer ? { yields: true } : {}),
      } satisfies CalendarEntry,
    }));
    return {
      claims: claimsOf(entries),
      build: () => [
        // At most so many live holds per visitor, decided in the write itself (D1 runs one
        // batch at a time), so holds fired together cannot all pass a count read before.
        ...(quota ? [quota.guard(1)] : []),
        insertReservation(scope.db, row),
        // Its time is freed at its expiry for whoever waits for it: the statement says so.
        ...insertRows(
          scope.db,
          calendarEntries,
          entryRows({ workspaceId: scope.workspaceId, locationId: req.locationId }, entries),
          freedByHold,
        ).map((s) => producing(s, freedEffects)),
        ...(req.offer?.statements(id, planned, expiresAt) ?? []),
      ],
      value: row,
    };
  };
  const row = await commitPlanned(env, scope.db, scope.workspaceId, plan(), deps.defer, {
    plan,
    // Another request won this staffer or unit: note it busy and let allocation pick another.
    replan: (refusal) => retries.learn(refusal),
  });
  return renderReservation(row, null);
}

/** The cap on a publishable visitor's live holds; a 429 waits until the first of them expires. */
function holdQuota(scope: Scope, holder: string): QuotaSpec {
  return {
    limit: PUBLIC_HOLDS.perHolder,
    count: async () => {
      const { live, firstExpiry } = await holderHolds(scope, holder, Date.now());
      return { used: live, frees: firstExpiry };
    },
    within: (adding) => holderWithinCap(scope, holder, Date.now(), adding, PUBLIC_HOLDS.perHolder),
    refuse: (frees) =>
      new ApiError(
        "too_many_holds",
        `A visitor may hold at most ${PUBLIC_HOLDS.perHolder} reservations at once; book or delete one, or wait until one expires.`,
        { headers: { "retry-after": retryAfter(frees) } },
      ),
  };
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
        quantity: s.quantity,
        units: s.units.map((u) => ({
          calendar_id: u.calendarId,
          resource_uuid: u.resourceId,
          entry_id: u.entryId,
        })),
      })),
    };
  });
}
