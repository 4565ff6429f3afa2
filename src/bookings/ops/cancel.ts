import { eq } from "drizzle-orm";
import { bookings, calendarEntries } from "../../db/schema";
import { whereIn } from "../../db/scope";
import { type Caller, customerCancelProblems } from "../../domain/booking-rules";
import { fieldError, validationError } from "../../lib/errors";
import { changeBooking } from "../change";
import type { BookingDeps } from "../deps";
import { movingClaims } from "../calendar-entries";
import { assertPolicyAllows } from "../policy-window";

export interface CancelInput {
  /** Why: canceled (the default), didnt_come, postponed, … */
  cancelReason?: string | undefined;
  internalNotes?: string | undefined;
  /** The staffer who cancels. */
  stafferId?: string | undefined;
  /**
   * A customer (publishable key) is held to the location's cancellation
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
    const problems = customerCancelProblems(input);
    if (Object.keys(problems).length > 0) throw validationError(problems);
  }
  return changeBooking(
    deps,
    bookingId,
    "cancel",
    async (loaded, { scope, now }) => {
      if (byCustomer) assertPolicyAllows("cancel", loaded, now);
      if (input.stafferId && !loaded.staffer) throw fieldError("staffer_uuid", "Unknown staffer.");
      const booking = {
        ...loaded.booking,
        isCanceled: true,
        cancelReason: input.cancelReason ?? "canceled",
        canceledBy: byCustomer ? "customer" : (input.stafferId ?? null),
        canceledAt: now,
        internalNotes: input.internalNotes ?? loaded.booking.internalNotes,
        updatedAt: now,
      };
      return {
        view: { ...loaded, booking },
        event: "booking-canceled",
        claims: movingClaims(loaded.entries, []),
        statements: [
          scope.db
            .update(bookings)
            .set({
              isCanceled: true,
              cancelReason: booking.cancelReason,
              canceledBy: booking.canceledBy,
              canceledAt: now,
              internalNotes: booking.internalNotes,
              updatedAt: now,
            })
            .where(whereIn(scope, bookings, eq(bookings.id, bookingId))),
          scope.db
            .delete(calendarEntries)
            .where(whereIn(scope, calendarEntries, eq(calendarEntries.sourceId, bookingId))),
        ],
      };
    },
    { stafferId: input.stafferId },
  );
}
