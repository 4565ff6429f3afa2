/** Busy time of booked services: their calendar_entries rows and the calendar claims that hold them. */
import type { StafferClaim } from "../calendar/client";
import type { CalendarEntry } from "../calendar/types";
import { MINUTE } from "../domain/duration";
import type { PlannedBooking } from "./planner";

/** Calendar entry of a booked service: its staffer's interval starting at the service's start. */
export const entryOf = <E extends { stafferId: string; startsAt: number }>(
  entries: E[],
  service: { stafferId: string; reservedOn: number },
) => entries.find((e) => e.stafferId === service.stafferId && e.startsAt === service.reservedOn);

/**
 * The `calendar_entries` row of a booked service: its staffer is busy from the
 * service's start until its end plus buffer.
 */
export const bookedEntry = (
  at: { workspaceId: string; locationId: string; bookingId: string },
  s: { stafferId: string; reservedOn: number; reservedUntil: number; buffer: number },
  id: string = crypto.randomUUID(),
) => ({
  id,
  workspaceId: at.workspaceId,
  stafferId: s.stafferId,
  locationId: at.locationId,
  kind: "booking" as const,
  sourceId: at.bookingId,
  startsAt: s.reservedOn,
  endsAt: s.reservedUntil + s.buffer * MINUTE,
});

/** The same busy time as an entry of a calendar claim. */
export const claimEntry = (e: {
  id: string;
  sourceId: string;
  startsAt: number;
  endsAt: number;
}): CalendarEntry => ({
  id: e.id,
  kind: "booking",
  source: e.sourceId,
  start: e.startsAt,
  end: e.endsAt,
});

type EntryRow = {
  id: string;
  stafferId: string;
  sourceId: string;
  startsAt: number;
  endsAt: number;
};

/**
 * One claim per staffer touched by a change of busy time: the entries it adds
 * there and the ones it supersedes (which the calendar locks until the write
 * settles, so no other write can replace them meanwhile).
 */
export function movingClaims(removed: EntryRow[], added: EntryRow[]): StafferClaim[] {
  const staffers = [...new Set([...removed, ...added].map((e) => e.stafferId))];
  return staffers.map((stafferId) => ({
    stafferId,
    entries: added.filter((e) => e.stafferId === stafferId).map(claimEntry),
    replaces: removed.filter((e) => e.stafferId === stafferId).map((e) => e.id),
    checkConflicts: true,
  }));
}

/** Busy time per staffer: each service with its buffer, grouped for one claim per calendar. */
export function claimsFor(bookings: PlannedBooking[]) {
  const byStaffer = new Map<string, CalendarEntry[]>();
  for (const booking of bookings) {
    for (const s of booking.services) {
      const entries = byStaffer.get(s.stafferId) ?? [];
      entries.push({
        id: s.id,
        kind: "booking",
        source: booking.id,
        start: s.start,
        end: s.end + s.buffer * MINUTE,
      });
      byStaffer.set(s.stafferId, entries);
    }
  }
  return [...byStaffer].map(([stafferId, entries]) => ({
    stafferId,
    entries,
    checkConflicts: true,
  }));
}
