import { commitPlanned, type Defer } from "../calendar/client";
import type { CalendarEntry } from "../calendar/types";
import { claimsOf, plannedEntries } from "../bookings/calendar-entries";
import { entryRows } from "../calendar/entry-rows";
import { loadPlanning, type PlanningRequest } from "../bookings/prepare";
import { bookingStart, type PlannedBooking, planItems } from "../bookings/planner";
import { stableIds } from "../bookings/plan-ids";
import { insertRows } from "../db/bounded";
import { calendarEntries, reservations } from "../db/schema";
import type { Scope } from "../db/scope";
import type { Env } from "../env";
import { toIso } from "../lib/clock";
import { ClaimRetries } from "../bookings/claim-retries";
import { type HeldItem, renderReservation } from "./view";

export interface ReservationRequest extends PlanningRequest {
  ttlSeconds: number;
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
  const { scope, env } = deps;
  const { inputs, services } = await loadPlanning(scope, req);
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
    };
    const entries = plannedEntries(planned, "held", id).map(({ calendarId, entry }) => ({
      calendarId,
      entry: { ...entry, expires: expiresAt } satisfies CalendarEntry,
    }));
    return {
      claims: claimsOf(entries),
      build: () => [
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
