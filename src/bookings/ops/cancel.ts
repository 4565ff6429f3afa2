import { eq } from "drizzle-orm";
import type { Context } from "hono";
import { bookings, calendarEntries } from "../../db/schema";
import { whereIn } from "../../db/scope";
import type { AppEnv } from "../../env";
import { fieldError } from "../../lib/errors";
import { changeBooking } from "../change";
import { movingClaims } from "../moves";

export interface CancelInput {
  cancel_reason?: string | undefined;
  internal_notes?: string | undefined;
  staffer_uuid?: string | undefined;
}

/**
 * Cancels the booking and frees its time. The calendars first lock the
 * entries being freed (so no concurrent change can move them), D1 records
 * the cancellation, and only then do the calendars drop the time; if that
 * last step is lost, the calendars settle it against D1 on their own.
 */
export function cancelBooking(c: Context<AppEnv>, bookingId: string, input: CancelInput) {
  return changeBooking(
    c,
    bookingId,
    "cancel",
    async (loaded, { scope, now }) => {
      if (input.staffer_uuid && !loaded.staffer)
        throw fieldError("staffer_uuid", "Unknown staffer.");
      const booking = {
        ...loaded.booking,
        isCanceled: true,
        cancelReason: input.cancel_reason ?? "canceled",
        canceledBy: input.staffer_uuid ?? null,
        canceledAt: now,
        internalNotes: input.internal_notes ?? loaded.booking.internalNotes,
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
    { stafferId: input.staffer_uuid },
  );
}
