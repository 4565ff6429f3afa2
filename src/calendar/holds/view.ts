import type { ReservationCheckout, ReservationRow } from "../queries/reservations";
import { heldItems } from "../held-items";
import { toIso } from "../../platform/clock";

/**
 * A checkout being made (its provider session not yet answered) shows as
 * open: the reservation is held for it either way.
 */
const checkoutStatus = (status: ReservationCheckout["status"]) =>
  status === "creating" ? ("open" as const) : status;

/**
 * A booked checkout's manage link: the composition root signs it (the manage
 * slice sits above this module); "" or absent: none.
 */
export type CheckoutManageUrl = (
  booking: NonNullable<ReservationCheckout["booked"]>["booking"],
) => string;

/**
 * A reservation, with its hosted checkout when one was started (null
 * otherwise); once the checkout booked, its booking's manage link and whom
 * the confirmation went to (null and [] until then, and wherever the read
 * did not load them: only a live reservation is listed, and it booked nothing).
 */
export function renderReservation(
  row: ReservationRow,
  checkout: ReservationCheckout | null,
  manageUrl?: CheckoutManageUrl,
) {
  const booked = checkout?.booked ?? null;
  return {
    uuid: row.id,
    location_uuid: row.locationId,
    expires_at: toIso(row.expiresAt),
    held_by: row.keyKind,
    items: heldItems(row).map((item) => ({
      datetime_start: item.datetime_start,
      services: item.services.map((s) => ({
        service_uuid: s.service_uuid,
        staffer_uuid: s.staffer_uuid,
        quantity: s.quantity ?? 1,
        starts_at: s.starts_at,
        ends_at: s.ends_at,
        resource_uuids: (s.units ?? []).map((u) => u.resource_uuid),
      })),
    })),
    payment: row.payment,
    checkout: checkout
      ? {
          status: checkoutStatus(checkout.status),
          booking_uuid: checkout.bookingId,
          manage_url: (booked && manageUrl?.(booked.booking)) || null,
          confirmation_sent_to: booked?.sentTo ?? [],
        }
      : null,
  };
}

export type ReservationView = ReturnType<typeof renderReservation>;
