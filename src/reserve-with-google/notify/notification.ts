import type { Scope } from "../../db/scope";
import type { Config } from "../../platform/config";
import { googleBookingNow } from "../queries/google-bookings";
import { bookingNotification, type UpdateMask } from "../rules/rtu";
import { callGoogle, type CallOutcome } from "./call";

type Notify = NonNullable<Config["rwgNotify"]>;

/**
 * Tells Google a booking it made changed elsewhere (the desk, the widget, a manage link):
 * the booking as it is now. Nothing to tell when Google did not make it, or when its last
 * change was the booking server's own (its version is the one `google_version` recorded:
 * Google knows, it asked for it).
 */
export async function notifyBooking(
  notify: Notify,
  scope: Scope,
  m: { partnerId: string; bookingId: string; mask: UpdateMask },
): Promise<CallOutcome | "nothing"> {
  const booking = await googleBookingNow(scope, m.bookingId);
  if (!booking || booking.version === booking.googleVersion) return "nothing";
  return callGoogle(
    notify,
    bookingNotification(
      m.partnerId,
      {
        bookingId: booking.bookingId,
        merchantId: booking.locationId,
        serviceId: booking.serviceId,
        startMs: booking.startAt,
        endMs: booking.endAt,
        isCanceled: booking.isCanceled,
        cancelReason: booking.cancelReason,
        cancelChargesFee: booking.cancelChargesFee,
      },
      m.mask,
    ),
  );
}
