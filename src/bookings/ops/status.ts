import { eq } from "drizzle-orm";
import type { Context } from "hono";
import { bookings } from "../../db/schema";
import { whereIn } from "../../db/scope";
import type { AppEnv } from "../../env";
import { fieldError } from "../../lib/errors";
import { bookingOperation } from "../context";

export async function setBookingStatus(c: Context<AppEnv>, bookingId: string, statusId: string) {
  const op = await bookingOperation(c, bookingId, "status", { statusId });
  const { loaded, scope } = op;
  if (!loaded.newStatus)
    throw fieldError("status_uuid", "Not one of the workspace's booking statuses.");
  const now = Date.now();
  return op.commit(
    {
      ...loaded,
      status: loaded.newStatus,
      booking: { ...loaded.booking, statusId, updatedAt: now },
    },
    "booking-status-changed",
    [
      scope.db
        .update(bookings)
        .set({ statusId, updatedAt: now })
        .where(whereIn(scope, bookings, eq(bookings.id, bookingId))),
    ],
  );
}

export async function setPublicNotes(c: Context<AppEnv>, bookingId: string, value: string) {
  const op = await bookingOperation(c, bookingId, "notes");
  const { loaded, scope } = op;
  const now = Date.now();
  return op.commit(
    { ...loaded, booking: { ...loaded.booking, publicNotes: value, updatedAt: now } },
    "booking-notes-updated",
    [
      scope.db
        .update(bookings)
        .set({ publicNotes: value, updatedAt: now })
        .where(whereIn(scope, bookings, eq(bookings.id, bookingId))),
    ],
  );
}
