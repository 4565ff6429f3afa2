import type { BookingMade } from "../http/deps";
import type { CalendarClaim } from "../calendar/client";
import type { ReservationRow } from "../calendar/queries/reservations";
import type { Condition, Statement } from "../db/statement";
import type { PlanItem } from "../calendar/planning/planner";

/**
 * A reservation a booking write uses up (./reservation-use.ts): its held
 * time becomes the booking's in the same claim and the same D1 batch, so no
 * other client can take it in between.
 */
export interface Redemption {
  /** The reservation's calendar entries: not in the way of the booking that replaces them. */
  entryIds: ReadonlySet<string>;
  /** The same entries, per calendar (staffers' and resource units'). */
  entriesByCalendar: ReadonlyMap<string, string[]>;
  /** Batch condition, built when the batch is: the reservation is still unused and unexpired. */
  live: () => Condition;
  /**
   * Removes the held time from D1 and marks the reservation used; a waitlist
   * entry it was offered to is booked (`bookingId`: the first booking made).
   */
  statements: (bookings: readonly BookingMade[]) => Statement[];
  /**
   * What to answer for a failed write: 409 `reservation_expired` when the
   * reservation was used, deleted or expired meanwhile (its time was nobody
   * else's while it lived), else the error itself.
   */
  explain: (error: unknown) => Promise<unknown>;
}

/**
 * A booking body's `reservation_uuid`: the reservation is read in the
 * booking's own read batch, then `redeem` checks it against the body and
 * answers the items to book (staffers fixed) and the redemption.
 */
export interface ReservationUse {
  id: string;
  redeem: (row: ReservationRow | null) => { items: PlanItem[]; redemption: Redemption };
}

/**
 * The booking's claims, each also replacing the reservation's entries in its
 * calendar: the calendar keeps them busy for everyone else until the write
 * settles, and the replaced entries go when it confirms.
 */
export function redeemingClaims(claims: CalendarClaim[], redemption: Redemption): CalendarClaim[] {
  const out = claims.map((claim) => ({
    ...claim,
    replaces: [
      ...(claim.replaces ?? []),
      ...(redemption.entriesByCalendar.get(claim.calendarId) ?? []),
    ],
  }));
  for (const [calendarId, ids] of redemption.entriesByCalendar) {
    if (!out.some((c) => c.calendarId === calendarId)) {
      out.push({ calendarId, entries: [], replaces: ids, checkConflicts: true });
    }
  }
  return out;
}
