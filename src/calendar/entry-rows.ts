import { ownerColumns } from "./ids";
import type { CalendarEntry } from "./types";

/** Whose entries these are: a workspace's, at one of its locations. */
export type EntryOwner = { workspaceId: string; locationId: string };

/**
 * The `calendar_entries` row of an entry of a calendar (a staffer's or a
 * resource unit's): D1 keeps exactly what the claim carries, under the same id.
 */
export const entryRow = (owner: EntryOwner, calendarId: string, entry: CalendarEntry) => ({
  id: entry.id,
  workspaceId: owner.workspaceId,
  ...ownerColumns(calendarId),
  locationId: owner.locationId,
  kind: entry.kind,
  sourceId: entry.source,
  startsAt: entry.start,
  endsAt: entry.end,
  expiresAt: entry.expires ?? null,
  yields: entry.yields ?? false,
  sessionKey: entry.session?.key ?? null,
  seats: entry.session?.seats ?? 1,
  capacity: entry.session?.capacity ?? null,
});

/** Rows of many entries, each with its calendar (new bookings, a reservation, a block). */
export const entryRows = (
  owner: EntryOwner,
  entries: { calendarId: string; entry: CalendarEntry }[],
) => entries.map(({ calendarId, entry }) => entryRow(owner, calendarId, entry));
