import {
  bookingEndings,
  endingStatements,
  NO_SHOW_REASON,
  type UseEnding,
} from "../packages/booking-end";
import type { HeldCredits } from "../packages/queries/booking-holds";
import type { Scope } from "../db/scope";
import type { Statement } from "../db/statement";
import type { BookingChange } from "./change-value";
import type { LoadedBooking } from "./queries/bookings";

/**
 * The credit uses a change ends: whatever its plan ended itself (a service
 * replaced), and every use still held when it completes or cancels the
 * booking. Derived here, not by each operation, so no way of closing a
 * booking leaves its credit held.
 */
export function creditEndings(
  creditHolds: HeldCredits,
  loaded: Pick<LoadedBooking, "booking">,
  change: BookingChange,
  now: number,
): UseEnding[] {
  const patch = change.booking;
  const { booking } = loaded;
  if (patch?.isCompleted) return bookingEndings(creditHolds, booking.id, { kind: "complete" });
  if (patch?.isCanceled)
    return bookingEndings(creditHolds, booking.id, {
      kind: "cancel",
      at: patch.canceledAt ?? now,
      start: booking.startAt,
      noShow: patch.cancelReason === NO_SHOW_REASON,
    });
  return change.creditEnds ?? [];
}

/**
 * The statements of `creditEndings` of one change or of many (a series'),
 * for the change's batch: every end first, then the events, so each event
 * shows the packages as the whole change leaves them.
 */
export const creditStatements = (
  scope: Scope,
  creditHolds: HeldCredits,
  changes: readonly { loaded: Pick<LoadedBooking, "booking">; change: BookingChange }[],
  now: number,
): Statement[] =>
  endingStatements(
    scope,
    creditHolds,
    changes.flatMap(({ loaded, change }) => creditEndings(creditHolds, loaded, change, now)),
    now,
  );
