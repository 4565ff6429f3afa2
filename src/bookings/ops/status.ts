import { eq } from "drizzle-orm";
import type { Context } from "hono";
import { bookings } from "../../db/schema";
import { whereIn } from "../../db/scope";
import type { AppEnv } from "../../env";
import { fieldError } from "../../lib/errors";
import { changeBooking } from "../change";

export function setBookingStatus(c: Context<AppEnv>, bookingId: string, statusId: string) {
  return changeBooking(
    c,
    bookingId,
    "status",
    async (loaded, { scope, now }) => {
      if (!loaded.newStatus)
        throw fieldError("status_uuid", "Not one of the workspace's booking statuses.");
      return {
        view: {
          ...loaded,
          status: loaded.newStatus,
          booking: { ...loaded.booking, statusId, updatedAt: now },
        },
        event: "booking-status-changed",
        statements: [
          scope.db
            .update(bookings)
            .set({ statusId, updatedAt: now })
            .where(whereIn(scope, bookings, eq(bookings.id, bookingId))),
        ],
      };
    },
    { statusId },
  );
}

export function setPublicNotes(c: Context<AppEnv>, bookingId: string, value: string) {
  return changeBooking(c, bookingId, "notes", async (loaded, { scope, now }) => ({
    view: { ...loaded, booking: { ...loaded.booking, publicNotes: value, updatedAt: now } },
    event: "booking-notes-updated",
    statements: [
      scope.db
        .update(bookings)
        .set({ publicNotes: value, updatedAt: now })
        .where(whereIn(scope, bookings, eq(bookings.id, bookingId))),
    ],
  }));
}
