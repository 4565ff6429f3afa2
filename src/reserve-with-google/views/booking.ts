import { z } from "@hono/zod-openapi";
import type { BookingOut, CreateBookingResponse, SlotOut } from "../wire/responses";
import { int64Out, unset } from "../wire/json";
import { googlePrepayment, googleStatus, type BookingState } from "../rules/status";

/** What a booking's Google answers are rendered from: the stored first answer and the booking now. */
export interface GoogleBookingFacts extends BookingState {
  bookingId: string;
  /** The CreateBookingResponse as first sent (its user_information and slot are echoed). */
  response: string;
  locationId: string;
  serviceId: string;
  stafferId: string;
  startAt: number;
  endAt: number;
}

// The stored answer is ours, yet parsed, never cast: a row from an older shape fails loudly.
const Stored = z.object({
  booking: z.object({
    slot: z.record(z.string(), z.unknown()).optional(),
    user_information: z.record(z.string(), z.unknown()).optional(),
  }),
});

/**
 * A booking as Google's `Booking` message, now: its id, its slot as it is (a move elsewhere
 * changes start and duration; a staffer Google asked for stays named), the user as Google
 * gave it, its status and prepayment.
 */
export function googleBookingOut(b: GoogleBookingFacts): BookingOut {
  const stored = Stored.parse(JSON.parse(b.response)).booking;
  const asked = (stored.slot ?? {}) as SlotOut;
  const slot: SlotOut = unset({
    ...asked,
    merchant_id: b.locationId,
    service_id: b.serviceId,
    start_sec: int64Out(b.startAt / 1000),
    duration_sec: int64Out((b.endAt - b.startAt) / 1000),
  });
  return unset({
    booking_id: b.bookingId,
    slot,
    user_information: stored.user_information as BookingOut["user_information"],
    status: googleStatus(b),
    payment_information: { prepayment_status: googlePrepayment() },
  });
}

/** The CreateBookingResponse a new booking gets (stored, and replayed byte for byte). */
export const createdAnswer = (booking: BookingOut): CreateBookingResponse => ({ booking });
