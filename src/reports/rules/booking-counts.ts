/** What the no-shows rollup needs of a booking (the columns the triggers of 0038 read). */
export interface BookingState {
  startAt: number;
  isCanceled: boolean;
  cancelReason: string | null;
  canceledAt: number | null;
  cancelChargesFee: boolean;
  /** Its payment policy's late-cancel window (booking_payments.policy), null when none. */
  lateCancelWindowMinutes: number | null;
}

/** Cancel reasons that are not the customer's doing: never a late cancel. */
const NOT_LATE = new Set(["didnt_come", "spam", "wrong_order"]);
const DEFAULT_WINDOW_MINUTES = 1440;

export interface BookingCounts {
  bookings: number;
  didntCome: number;
  lateCancels: number;
}

/**
 * A booking's counts, as the SQL of 0038 says them: due (kept, no-show or late
 * cancel; a timely cancel is not counted), no-show (cancelled as didnt_come),
 * late cancel (cancelled for another reason with a fee charged, or at/after
 * the start − its window; 24 h when the policy names none).
 */
export function bookingCounts(b: BookingState): BookingCounts {
  const didntCome = b.isCanceled && b.cancelReason === "didnt_come";
  const window = b.lateCancelWindowMinutes ?? DEFAULT_WINDOW_MINUTES;
  const late =
    b.isCanceled &&
    !NOT_LATE.has(b.cancelReason ?? "") &&
    (b.cancelChargesFee || (b.canceledAt ?? 0) >= b.startAt - 60_000 * window);
  return {
    bookings: !b.isCanceled || didntCome || late ? 1 : 0,
    didntCome: didntCome ? 1 : 0,
    lateCancels: late ? 1 : 0,
  };
}
