import type { Scope } from "../db/scope";
import { ApiError } from "../platform/errors";
import { googleBookingNow } from "./queries/google-bookings";
import { googlePrepayment, googleStatus } from "./rules/status";
import type { GetBookingStatusResponse } from "./wire/responses";

/**
 * A booking_id that names no booking Google made with this workspace. One answer whether
 * the booking does not exist, was made elsewhere or is another workspace's: a partner's
 * credentials learn nothing of bookings that are not theirs.
 */
export const unknownBooking = () =>
  new ApiError("invalid_argument", "No booking made through Google has this booking_id.", {
    errors: { booking_id: ["Unknown booking."] },
  });

/** GetBookingStatus: the status of one of Google's bookings as it is now (a desk cancel included). */
export async function googleBookingStatus(
  scope: Scope,
  bookingId: string,
): Promise<GetBookingStatusResponse> {
  const booking = await googleBookingNow(scope, bookingId);
  if (!booking) throw unknownBooking();
  return {
    booking_id: booking.bookingId,
    booking_status: googleStatus(booking),
    prepayment_status: googlePrepayment(),
  };
}
