import type { PlanItem } from "../calendar/planning/planner";
import type { Redemption, ReservationUse } from "./redemption";
import {
  endReservation,
  findReservation,
  isLive,
  type ReservationRow,
  reservationStillLive,
} from "../calendar/queries/reservations";
import type { Scope } from "../db/scope";
import type { ReservationUsed } from "../http/deps";
import { isGuardFailure } from "../db/constraints";
import type { ItemSubject, Problem } from "../platform/rules/problems";
import { ApiError, InvalidError, invalid, RecordChangedError } from "../platform/errors";
import { heldEntriesByCalendar, heldItems } from "../calendar/held-items";
import { holdLost } from "../calendar/holds/extend";

/**
 * What a booking body can be wrong about when it uses a reservation: its
 * items as any booking's, how many there are, and the reservation itself.
 */
export type RedeemSubject = ItemSubject | { is: "items" } | { is: "reservation" };

const expired = holdLost;

export interface RedeemRequest {
  reservationId: string;
  locationId: string;
  /** What the body asks for: it must be exactly what the reservation holds. */
  items: PlanItem[];
}

/**
 * Checks that a booking body asks for exactly what a reservation holds (422
 * otherwise; 409 `reservation_expired` once it is used, deleted or expired)
 * and turns it into the booking's items, every staffer fixed, and the
 * redemption that swaps the held time for the booking's in one write. The
 * row comes from the booking's own read batch: no round trip of its own.
 */
export const reservationUse = (
  scope: Scope,
  req: RedeemRequest,
  used: ReservationUsed,
): ReservationUse => ({
  id: req.reservationId,
  redeem: (row) => redeem(scope, req, row, used),
});

function redeem(
  scope: Scope,
  req: RedeemRequest,
  row: ReservationRow | null,
  used: ReservationUsed,
): { items: PlanItem[]; redemption: Redemption } {
  if (!row) throw invalid({ is: "reservation" }, "Unknown reservation.");
  if (!isLive(row, Date.now())) throw expired();
  const held = heldItems(row);

  const problems: Problem<RedeemSubject>[] = [];
  const refuse = (about: RedeemSubject, message: string) =>
    problems.push({ about, messages: [message] });
  if (req.locationId !== row.locationId) {
    refuse({ is: "location" }, "Must be the reservation's location.");
  }
  if (req.items.length !== held.length) {
    refuse({ is: "items" }, `The reservation holds ${held.length} item(s); book all of them.`);
  }
  const items = req.items.map((item, i): PlanItem => {
    const h = held[i];
    if (!h) return item;
    if (item.start !== Date.parse(h.datetime_start)) {
      refuse({ is: "start", item: i }, `Must be the reservation's start, ${h.datetime_start}.`);
    }
    if (item.services.length !== h.services.length) {
      refuse(
        { is: "service", item: i, service: 0 },
        `The reservation holds ${h.services.length} service(s) in this item.`,
      );
    }
    item.services.forEach((s, j) => {
      const hs = h.services[j];
      if (hs && s.serviceId !== hs.service_uuid) {
        refuse({ is: "service", item: i, service: j }, "Must be the reserved service.");
      }
      if (hs && (s.quantity ?? 1) !== (hs.quantity ?? 1)) {
        refuse(
          { is: "quantity", item: i, service: j },
          `Must be the reserved seats (${hs.quantity ?? 1}).`,
        );
      }
      if (hs && s.stafferId && s.stafferId !== hs.staffer_uuid) {
        refuse(
          { is: "staffer", item: i, service: j },
          "Must be the reserved staffer (or left out).",
        );
      }
    });
    return {
      ...item,
      services: h.services.map((hs) => ({
        serviceId: hs.service_uuid,
        stafferId: hs.staffer_uuid,
        quantity: hs.quantity ?? 1,
      })),
    };
  });
  if (problems.length > 0) throw new InvalidError(problems);

  const byCalendar = heldEntriesByCalendar(held);
  const now = Date.now();
  return {
    items,
    redemption: {
      entryIds: new Set([...byCalendar.values()].flat()),
      entriesByCalendar: byCalendar,
      live: () => reservationStillLive(row.id, Date.now()),
      statements: (bookings) => [
        ...endReservation(scope, row.id, now),
        ...used(scope, row.id, bookings[0]?.id ?? "", now, bookings),
      ],
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
