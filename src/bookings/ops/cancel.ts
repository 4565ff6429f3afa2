import { eq } from "drizzle-orm";
import type { Context } from "hono";
import { calendarFor } from "../../calendar/client";
import { bookings, calendarEntries } from "../../db/schema";
import { whereIn } from "../../db/scope";
import type { AppEnv } from "../../env";
import { fieldError } from "../../lib/errors";
import { bookingOperation } from "../context";

export interface CancelInput {
  cancel_reason?: string | undefined;
  internal_notes?: string | undefined;
  staffer_uuid?: string | undefined;
}

/**
 * Cancels in D1 first, then frees the time in the calendars: if freeing fails,
 * the staffer merely looks busy a little longer, never double-booked.
 */
export async function cancelBooking(c: Context<AppEnv>, bookingId: string, input: CancelInput) {
  const op = await bookingOperation(c, bookingId, "cancel", { stafferId: input.staffer_uuid });
  const { loaded, scope } = op;
  if (input.staffer_uuid && !loaded.staffer) throw fieldError("staffer_uuid", "Unknown staffer.");
  const now = Date.now();
  const booking = {
    ...loaded.booking,
    isCanceled: true,
    cancelReason: input.cancel_reason ?? "canceled",
    canceledBy: input.staffer_uuid ?? null,
    canceledAt: now,
    internalNotes: input.internal_notes ?? loaded.booking.internalNotes,
    updatedAt: now,
  };
  const rendered = await op.commit({ ...loaded, booking }, "booking-canceled", [
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
  ]);
  const byStaffer = new Map<string, string[]>();
  for (const e of loaded.entries)
    byStaffer.set(e.stafferId, [...(byStaffer.get(e.stafferId) ?? []), e.id]);
  await Promise.allSettled(
    [...byStaffer].map(([stafferId, ids]) =>
      calendarFor(op.env, scope.workspaceId, stafferId).free(ids),
    ),
  );
  return rendered;
}
