import type { PlanItem } from "../bookings/planner";
import type { Redemption, ReservationUse } from "../bookings/redemption";
import {
  endReservation,
  findReservation,
  type ReservationRow,
  reservationStillLive,
} from "../db/queries/reservations";
import type { Scope } from "../db/scope";
import { isGuardFailure } from "../db/constraints";
import { ApiError, fieldError, RecordChangedError, validationError } from "../lib/errors";
import { heldEntriesByCalendar, heldItems } from "../calendar/held-items";
import { isLive } from "./view";

const expired = () =>
  new ApiError(
    "reservation_expired",
    "The reservation has expired or was already used or deleted; search and reserve again.",
  );

export interface RedeemRequest {
  reservationId: string;
  locationId: string;
  /** What the body asks for: it must be exactly what the reservation holds. */
  items: PlanItem[];
  fields: {
    location: string;
    service: (item: number, service: number) => string;
    staffer: (item: number, service: number) => string;
    /** Where to report a different number of items (the cart's `items`). */
    items: string;
  };
}

/**
 * Checks that a booking body asks for exactly what a reservation holds (422
 * otherwise; 409 `reservation_expired` once it is used, deleted or expired)
 * and turns it into the booking's items, every staffer fixed, and the
 * redemption that swaps the held time for the booking's in one write. The
 * row comes from the booking's own read batch: no round trip of its own.
 */
export const reservationUse = (scope: Scope, req: RedeemRequest): ReservationUse => ({
  id: req.reservationId,
  redeem: (row) => redeem(scope, req, row),
});

function redeem(
  scope: Scope,
  req: RedeemRequest,
  row: ReservationRow | null,
): { items: PlanItem[]; redemption: Redemption } {
  if (!row) throw fieldError("reservation_uuid", "Unknown reservation.");
  if (!isLive(row, Date.now())) throw expired();
  const held = heldItems(row);

  const problems: Record<string, string[]> = {};
  if (req.locationId !== row.locationId) {
    problems[req.fields.location] = ["Must be the reservation's location."];
  }
  if (req.items.length !== held.length) {
    problems[req.fields.items] = [
      `The reservation holds ${held.length} item(s); book all of them.`,
    ];
  }
  const items = req.items.map((item, i): PlanItem => {
    const h = held[i];
    if (!h) return item;
    if (item.start !== Date.parse(h.datetime_start)) {
      problems[item.timeField] = [`Must be the reservation's start, ${h.datetime_start}.`];
    }
    if (item.services.length !== h.services.length) {
      problems[req.fields.service(i, 0)] = [
        `The reservation holds ${h.services.length} service(s) in this item.`,
      ];
    }
    item.services.forEach((s, j) => {
      const hs = h.services[j];
      if (hs && s.serviceId !== hs.service_uuid) {
        problems[req.fields.service(i, j)] = ["Must be the reserved service."];
      }
      if (hs && s.stafferId && s.stafferId !== hs.staffer_uuid) {
        problems[req.fields.staffer(i, j)] = ["Must be the reserved staffer (or left out)."];
      }
    });
    return {
      ...item,
      services: h.services.map((hs) => ({
        serviceId: hs.service_uuid,
        stafferId: hs.staffer_uuid,
      })),
    };
  });
  if (Object.keys(problems).length > 0) throw validationError(problems);

  const byCalendar = heldEntriesByCalendar(held);
  const now = Date.now();
  return {
    items,
    redemption: {
      entryIds: new Set([...byCalendar.values()].flat()),
      entriesByCalendar: byCalendar,
      live: () => reservationStillLive(row.id, Date.now()),
      statements: endReservation(scope, row.id, now),
      explain: async (error) => {
        if (isGuardFailure(error) || error instanceof RecordChangedError) return expired();
        // Refused as taken: another write used the reservation first, or it just expired.
        if (error instanceof ApiError && error.code === "slot_unavailable") {
          const fresh = await findReservation(scope, row.id);
          if (!fresh || !isLive(fresh, Date.now())) return expired();
        }
        return error;
      },
    },
  };
}
