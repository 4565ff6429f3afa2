import { ownerColumns } from "./ids";
import type { CalendarEntry } from "./types";

type At = { workspaceId: string; locationId: string };

/**
 * The `calendar_entries` row of an entry of a calendar (a staffer's or a
 * resource unit's): D1 keeps exactly what the claim carries, under the same id.
 */
export const entryRow = (at: At, calendarId: string, entry: CalendarEntry) => ({
  id: entry.id,
  workspaceId: at.workspaceId,
  ...ownerColumns(calendarId),
  locationId: at.locationId,
  kind: entry.kind,
  sourceId: entry.source,
  startsAt: entry.start,
  endsAt: entry.end,
  expiresAt: entry.expires ?? null,
  yields: entry.yields ?? false,
});

/** Rows of many entries, each with its calendar (new bookings, a reservation, a block). */
export const entryRows = (at: At, entries: { calendarId: string; entry: CalendarEntry }[]) =>
  entries.map(({ calendarId, entry }) => entryRow(at, calendarId, entry));
