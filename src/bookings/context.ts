import type { BatchItem } from "drizzle-orm/batch";
import type { Context } from "hono";
import { loadBooking, type Referenced } from "../db/queries/bookings";
import { type EventType, eventStatement } from "../db/queries/outbox";
import { allows, type Operation } from "../domain/booking-rules";
import type { AppEnv } from "../env";
import { ApiError, notFound } from "../lib/errors";
import { type BookingView, renderBooking } from "../routes/public/bookings/render";
import type { Booking } from "../routes/public/bookings/schema";

/** What every booking operation starts from: the scope, the loaded booking and a renderer. */
export async function bookingOperation(
  c: Context<AppEnv>,
  bookingId: string,
  op: Operation,
  ref: Referenced = {},
) {
  const ws = c.var.workspace;
  const scope = { db: c.var.db, workspaceId: ws.id };
  const loaded = await loadBooking(scope, bookingId, ref);
  if (!loaded) throw notFound("Booking");
  // Replacing a service has its own conflict code for every unmet condition, openness included.
  if (op !== "replace_service" && !allows(loaded.booking, op)) {
    throw new ApiError(
      "booking_closed",
      "The booking is completed or canceled; it can no longer be changed that way.",
    );
  }
  const ctx = { currency: ws.currency, locale: ws.locale, origin: new URL(c.req.url).origin };
  const render = (view: BookingView): Booking => renderBooking(view, ctx);

  /** Writes the change and its event in one batch; returns the booking as it now is. */
  const commit = async (view: BookingView, type: EventType, statements: BatchItem<"sqlite">[]) => {
    const rendered = render(view);
    const event = eventStatement(scope.db, ws.id, type, rendered);
    await scope.db.batch([event, ...statements]);
    return rendered;
  };
  return { scope, loaded, render, commit, env: c.env };
}
