import type { Scope } from "../db/scope";
import { googleBookingsOf } from "./queries/google-bookings";
import { googleBookingOut } from "./views/booking";
import type { ListBookingsResponse } from "./wire/responses";

/**
 * How many of a user's bookings one ListBookings answers: the latest (by when Google made
 * them). Google asks for one user's bookings with one merchant's partner; a user past this
 * is far beyond any real use, and the answer stays bounded.
 */
export const LIST_BOOKINGS_LIMIT = 500;

/** ListBookings: every booking a Google user made with this workspace, newest first. */
export async function googleUserBookings(
  scope: Scope,
  userId: string,
): Promise<ListBookingsResponse> {
  const rows = await googleBookingsOf(scope, userId, LIST_BOOKINGS_LIMIT);
  return { bookings: rows.map(googleBookingOut) };
}
