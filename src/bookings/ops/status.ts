import { eq } from "drizzle-orm";
import { bookings } from "../../db/schema";
import { whereIn } from "../../db/scope";
import { fieldError } from "../../lib/errors";
import { changeBooking } from "../change";
import type { BookingDeps } from "../deps";

export function setBookingStatus(deps: BookingDeps, bookingId: string, statusId: string) {
  return changeBooking(
    deps,
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

export function setPublicNotes(deps: BookingDeps, bookingId: string, value: string) {
  return changeBooking(deps, bookingId, "notes", async (loaded, { scope, now }) => ({
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
