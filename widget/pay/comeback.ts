import { ApiFailure, type Client } from "../api";
import type { Booking, PaymentTerms, Reservation, ReservationCheckout } from "../types";
import type { ReturnMarker } from "./checkout";

/** What the widget shows when the provider's page sends the customer back. */
export type Comeback =
  /** Paid (or card saved): the booking the provider's event made. */
  | { kind: "booked"; booking: Booking; terms: PaymentTerms | null }
  /** Back without paying: the hold still stands, the pay step again. */
  | { kind: "held"; reservation: Reservation }
  /** The payment page lapsed, the hold ran out, or the time went before the money came (refunded). */
  | { kind: "gone"; why: "expired" | "hold_expired" | "lost" }
  /** Paid, but the provider's event has not reached the salon yet. */
  | { kind: "pending" };

/**
 * The booking as the customer's own booking answer shows it: a later read of it carries
 * neither its manage link nor where its confirmation went, so the checkout (once booked)
 * tells both; an older API tells neither and the confirmation goes without them.
 */
export function asAnswered(booking: Booking, checkout: ReservationCheckout): Booking {
  const manage = checkout.manage_url;
  return {
    ...booking,
    links: manage
      ? [...booking.links.filter((l) => l.type !== "manage"), { type: "manage", link: manage }]
      : booking.links,
    confirmation_sent_to: checkout.confirmation_sent_to ?? booking.confirmation_sent_to,
  };
}

export interface Polling {
  tries: number;
  delayMs: number;
  sleep?: (ms: number) => Promise<void>;
}

/** The provider's event usually lands within a second or two of the redirect. */
export const POLLING: Polling = { tries: 20, delayMs: 1000 };

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function readReservation(api: Client, uuid: string): Promise<Reservation | null> {
  try {
    return await api.get<Reservation>(`/reservations/${uuid}`);
  } catch (e) {
    if (e instanceof ApiFailure && e.status === 404) return null;
    throw e;
  }
}

/**
 * Reads the reservation the marker names; after paying, polls while its checkout is still open.
 * Network failures are thrown (the widget offers "Try again").
 */
export async function comeBack(
  api: Client,
  marker: ReturnMarker,
  polling: Polling = POLLING,
  now: () => number = Date.now,
): Promise<Comeback> {
  const sleep = polling.sleep ?? wait;
  let reservation = await readReservation(api, marker.reservation);
  for (
    let tried = 1;
    marker.kind === "paid" && reservation?.checkout?.status === "open" && tried < polling.tries;
    tried++
  ) {
    await sleep(polling.delayMs);
    reservation = await readReservation(api, marker.reservation);
  }
  if (!reservation) return { kind: "gone", why: "hold_expired" };
  const checkout = reservation.checkout ?? null;
  if (checkout?.status === "complete") {
    if (!checkout.booking_uuid) return { kind: "gone", why: "lost" };
    const read = await api.get<Booking>(`/bookings/${checkout.booking_uuid}`);
    return {
      kind: "booked",
      booking: asAnswered(read, checkout),
      terms: reservation.payment ?? null,
    };
  }
  if (checkout?.status === "expired") return { kind: "gone", why: "expired" };
  if (marker.kind === "paid" && checkout?.status === "open") return { kind: "pending" };
  if (Date.parse(reservation.expires_at) <= now()) return { kind: "gone", why: "hold_expired" };
  return { kind: "held", reservation };
}
