import type { LoadedBooking } from "./queries/bookings";
import { beforeDeadline, changeDeadlineOffset } from "./rules/policy";
import { ApiError } from "../platform/errors";

/**
 * Refuses a customer's (publishable key's) cancel or reschedule once the
 * location's offset before the booking's start has passed. Staff (secret
 * keys) are never bound by it, so callers ask only when the request is.
 */
export function assertPolicyAllows(
  action: "cancel" | "change",
  loaded: Pick<LoadedBooking, "booking" | "policy">,
  now: number,
): void {
  const offset =
    action === "cancel" ? loaded.policy.cancellationOffset : changeDeadlineOffset(loaded.policy);
  if (beforeDeadline(offset, loaded.booking.startAt, now)) return;
  const what = action === "cancel" ? "canceled" : "rescheduled";
  const text = action === "cancel" ? loaded.policy.cancellationText : loaded.policy.changeText;
  throw new ApiError(
    "policy_window_passed",
    offset > 0
      ? `The booking can no longer be ${what} online: the location allows it until ${offset} minutes before the start.${text ? ` ${text}` : ""}`
      : `The booking has started; it can no longer be ${what} online.${text ? ` ${text}` : ""}`,
  );
}
