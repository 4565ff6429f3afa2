import type { LoadedBooking } from "../queries/bookings";
import type { LoadedSeries } from "../queries/series-read";
import { isOpen } from "../rules/booking-rules";
import { invalid } from "../../platform/errors";

/** What a series change can be wrong about: the occurrence it starts from. */
export type OccurrenceSubject = { is: "occurrence" };

/** The occurrence a change starts from; 422 when the series has no such booking. */
export function occurrence(loaded: LoadedSeries, bookingId: string): LoadedBooking {
  const found = loaded.bookings.find((b) => b.booking.id === bookingId);
  if (!found)
    throw invalid({ is: "occurrence" }, "The booking is not an occurrence of this series.");
  return found;
}

/**
 * The occurrences a series change acts on: those starting at or after `from`
 * that are still open (not canceled, not completed) and have not started
 * yet. Past, completed and canceled ones stay as they are.
 */
export const upcomingOpen = (loaded: LoadedSeries, from: number, now: number) =>
  loaded.bookings.filter(
    (b) => isOpen(b.booking) && b.booking.startAt >= from && b.booking.startAt > now,
  );
