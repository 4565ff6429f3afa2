/**
 * Busy time of booked services: their calendar_entries rows and the calendar
 * claims that hold them. A service's time is its staffer's and, for a service
 * that needs resources, one unit's of each (the same interval).
 */
import type { CalendarClaim } from "../client";
import { type EntryOwner, entryRow } from "../entry-rows";
import { calendarIdOf } from "../ids";
import type { CalendarEntry } from "../types";
import type { EntryRow } from "../../db/schema";
import type { SessionSeats } from "../rules";
import { busyEnd } from "../../platform/rules/duration";
import type { PlannedBooking, PlannedUnit } from "./planner";

/** Calendar entry of a booked service: its staffer's interval starting at the service's start. */
export const entryOf = <E extends { stafferId: string | null; startsAt: number }>(
  entries: E[],
  service: { stafferId: string; reservedOn: number },
) => entries.find((e) => e.stafferId === service.stafferId && e.startsAt === service.reservedOn);

/** Whose entries a booking's are: its workspace, location and itself (their `source`). */
type BookingOwner = EntryOwner & { bookingId: string };

export const bookingOwner = (b: {
  id: string;
  workspaceId: string;
  locationId: string;
}): BookingOwner => ({
  workspaceId: b.workspaceId,
  locationId: b.locationId,
  bookingId: b.id,
});

type BookedTime = {
  reservedOn: number;
  reservedUntil: number;
  buffer: number;
  /** A group service's seats in its session at this time. */
  session?: SessionSeats | undefined;
};

/** A booked service's time in one calendar: from its start until its end plus buffer. */
const bookedRow = (owner: BookingOwner, calendarId: string, s: BookedTime, id: string) =>
  entryRow(owner, calendarId, {
    id,
    kind: "booking",
    source: owner.bookingId,
    start: s.reservedOn,
    end: busyEnd(s.reservedUntil, s.buffer),
    ...(s.session ? { session: s.session } : {}),
  });

/** The `calendar_entries` row of a booked service in its staffer's calendar. */
export const bookedEntry = (
  owner: BookingOwner,
  s: BookedTime & { stafferId: string },
  id: string = crypto.randomUUID(),
) => bookedRow(owner, s.stafferId, s, id);

/** The `calendar_entries` row of one resource unit a booked service takes: the same interval. */
export const unitEntry = (owner: BookingOwner, s: BookedTime, unit: PlannedUnit) =>
  bookedRow(owner, unit.calendarId, s, unit.entryId);

/** The same busy time as an entry of a calendar claim. */
export const claimEntry = (e: {
  id: string;
  sourceId: string;
  startsAt: number;
  endsAt: number;
  sessionKey: string | null;
  seats: number;
  capacity: number | null;
}): CalendarEntry => ({
  id: e.id,
  kind: "booking",
  source: e.sourceId,
  start: e.startsAt,
  end: e.endsAt,
  ...(e.sessionKey
    ? { session: { key: e.sessionKey, seats: e.seats, capacity: e.capacity ?? 1 } }
    : {}),
});

/**
 * One claim per calendar (staffer or resource unit) touched by a change of
 * busy time: the entries it adds there and the ones it supersedes (which the
 * calendar locks until the write settles, so no other write can replace them
 * meanwhile).
 */
export function movingClaims(removed: EntryRow[], added: EntryRow[]): CalendarClaim[] {
  const ids = [...new Set([...removed, ...added].map(calendarIdOf))];
  return ids.map((calendarId) => ({
    calendarId,
    entries: added.filter((e) => calendarIdOf(e) === calendarId).map(claimEntry),
    replaces: removed.filter((e) => calendarIdOf(e) === calendarId).map((e) => e.id),
    checkConflicts: true,
  }));
}

/** Every calendar entry of planned bookings: each service's staffer and units, with its buffer. */
export function plannedEntries(
  bookings: PlannedBooking[],
  kind: "booking" | "held" = "booking",
  source?: string,
): { calendarId: string; entry: CalendarEntry }[] {
  return bookings.flatMap((booking) =>
    booking.services.flatMap((s) => {
      const busy: Omit<CalendarEntry, "id"> = {
        kind,
        source: source ?? booking.id,
        start: s.start,
        end: busyEnd(s.end, s.buffer),
        // A seat's entries (its staffer's and its units') are the session's in each calendar.
        ...(s.session ? { session: s.session } : {}),
      };
      return [
        { calendarId: s.stafferId, entry: { id: s.id, ...busy } },
        ...s.units.map((u) => ({ calendarId: u.calendarId, entry: { id: u.entryId, ...busy } })),
      ];
    }),
  );
}

/** Entries grouped into one claim per calendar. */
export function claimsOf(entries: { calendarId: string; entry: CalendarEntry }[]): CalendarClaim[] {
  const byCalendar = new Map<string, CalendarEntry[]>();
  for (const { calendarId, entry } of entries) {
    byCalendar.set(calendarId, [...(byCalendar.get(calendarId) ?? []), entry]);
  }
  return [...byCalendar].map(([calendarId, list]) => ({
    calendarId,
    entries: list,
    checkConflicts: true,
  }));
}

/** Busy time per calendar of new bookings, one claim per calendar. */
export const claimsFor = (bookings: PlannedBooking[]) => claimsOf(plannedEntries(bookings));
