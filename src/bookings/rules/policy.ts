import { type BookingState, isOpen } from "./booking-rules";
import { MINUTE } from "../../platform/rules/duration";

/** A location's booking policy: offsets in minutes before a booking's start, 0 meaning no limit. */
export interface LocationPolicy {
  cancellationOffset: number;
  changeOffset: number;
  policyText: string | null;
  cancellationText: string | null;
  changeText: string | null;
}

/** The policy part of a location row. */
export const policyOf = (location: LocationPolicy): LocationPolicy => ({
  cancellationOffset: location.cancellationOffset,
  changeOffset: location.changeOffset,
  policyText: location.policyText,
  cancellationText: location.cancellationText,
  changeText: location.changeText,
});

/**
 * Whether the policy still allows a change `offsetMin` minutes before `startAt`
 * at `now`: up to and including the deadline itself. An offset of 0 sets no
 * deadline before the start, but a booking that has begun is no longer the
 * customer's to undo (a no-show must not vanish afterwards).
 */
export function beforeDeadline(offsetMin: number, startAt: number, now: number): boolean {
  return offsetMin <= 0 ? now < startAt : now <= startAt - offsetMin * MINUTE;
}

/**
 * The offset a customer's reschedule is bound by: moving a booking frees its
 * time as surely as cancelling it, so the cancellation deadline binds too
 * (otherwise a late cancel is a reschedule to next month and a cancel there).
 */
export const changeDeadlineOffset = (
  policy: Pick<LocationPolicy, "cancellationOffset" | "changeOffset">,
) => Math.max(policy.changeOffset, policy.cancellationOffset);

export interface PolicyVerdict {
  isCancelable: boolean;
  isChangeable: boolean;
}

/** What a customer may still do with a booking at `now` under its location's policy. */
export function policyVerdict(
  policy: Pick<LocationPolicy, "cancellationOffset" | "changeOffset">,
  booking: BookingState & { startAt: number },
  now: number,
): PolicyVerdict {
  const open = isOpen(booking);
  return {
    isCancelable: open && beforeDeadline(policy.cancellationOffset, booking.startAt, now),
    isChangeable: open && beforeDeadline(changeDeadlineOffset(policy), booking.startAt, now),
  };
}
