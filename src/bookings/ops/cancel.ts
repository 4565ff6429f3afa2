import { customerCancelRefusals } from "../rules/booking-rules";
import type { Caller } from "../../platform/caller";
import { InvalidError, invalid } from "../../platform/errors";
import { changeBooking } from "../change";
import type { BookingDeps } from "../deps";
import { assertPolicyAllows } from "../policy-window";

export interface CancelInput {
  /** Why: canceled (the default), didnt_come, postponed, … */
  cancelReason?: string | undefined;
  internalNotes?: string | undefined;
  /** The staffer who cancels. */
  stafferId?: string | undefined;
  /**
   * Staff only: charge the booking's late-cancel fee (or, with the reason
   * didnt_come, its no-show fee) to what was paid online or the saved card.
   */
  chargeFee?: boolean | undefined;
  /**
   * A customer (publishable key) is bound by the location's cancellation
   * policy, gives only a customer's reason, and is recorded as `customer`.
   */
  caller: Caller;
}

/**
 * Cancels the booking and frees its time. The calendars first lock the
 * entries being freed (so no concurrent change can move them), D1 records
 * the cancellation, and only then do the calendars drop the time; if that
 * last step is lost, the calendars settle it against D1 on their own.
 */
export async function cancelBooking(deps: BookingDeps, bookingId: string, input: CancelInput) {
  const byCustomer = input.caller === "customer";
  if (byCustomer) {
    // Refused before anything is read: the body alone decides.
    const problems = customerCancelRefusals(input);
    if (problems.length > 0) throw new InvalidError(problems);
  }
  return changeBooking(deps, bookingId, {
    op: "cancel",
    refs: { stafferId: input.stafferId },
    notifies: true,
    plan: (loaded, { now }) => {
      if (byCustomer) assertPolicyAllows("cancel", loaded, now);
      if (input.stafferId && !loaded.staffer) throw invalid({ is: "staffer" }, "Unknown staffer.");
      return {
        event: "booking-canceled",
        booking: {
          isCanceled: true,
          cancelReason: input.cancelReason ?? "canceled",
          canceledBy: byCustomer ? "customer" : (input.stafferId ?? null),
          canceledAt: now,
          cancelChargesFee: !byCustomer && input.chargeFee === true,
          internalNotes: input.internalNotes ?? loaded.booking.internalNotes,
        },
        busy: [],
        messages: { send: "booking-canceled", reminders: "cancel" },
      };
    },
  });
}
