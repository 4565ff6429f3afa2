import type { BookingStatus, PrepaymentStatus } from "../wire/enums";

export interface BookingState {
  isCanceled: boolean;
  cancelReason: string | null;
  cancelChargesFee: boolean;
}

/**
 * What Google calls the booking's status. A no-show is a cancel with reason `didnt_come`;
 * `NO_SHOW_PENALIZED` when the salon charged its fee. A completed visit stays `CONFIRMED`
 * (Google's statuses have no "completed").
 */
export function googleStatus(b: BookingState): BookingStatus {
  if (!b.isCanceled) return "CONFIRMED";
  if (b.cancelReason === "didnt_come") return b.cancelChargesFee ? "NO_SHOW_PENALIZED" : "NO_SHOW";
  return "CANCELED";
}

/**
 * Google's bookings never pay ahead: services that take money online are not offered to
 * Google (the booking server refuses them), so nothing was prepaid.
 */
export const googlePrepayment = (): PrepaymentStatus => "PREPAYMENT_NOT_PROVIDED";
