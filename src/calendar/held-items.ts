import type { ReservationRow } from "./queries/reservations";

// The items a reservation stores: read by the reservation's own use-cases and by the
// calendar client, which drops an ended reservation's entries from every calendar it took.

/** A held service as stored in `reservations.items`: the API's fields and its calendar entry. */
export interface HeldService {
  service_uuid: string;
  staffer_uuid: string;
  starts_at: string;
  ends_at: string;
  /** The `calendar_entries` row (and calendar object entry) that holds its time. */
  entry_id: string;
  /** Seats of a group service (absent: 1, and in reservations made before sessions). */
  quantity?: number;
  /** The resource units it takes (absent in reservations made before resources). */
  units?: { calendar_id: string; resource_uuid: string; entry_id: string }[];
}

export interface HeldItem {
  datetime_start: string;
  services: HeldService[];
}

export const heldItems = (row: Pick<ReservationRow, "items">): HeldItem[] =>
  JSON.parse(row.items) as HeldItem[];

/**
 * The calendar entries a reservation holds, per calendar: its staffers' and
 * its resource units' (what a booking or a release replaces).
 */
export function heldEntriesByCalendar(items: readonly HeldItem[]): Map<string, string[]> {
  const byCalendar = new Map<string, string[]>();
  const add = (calendarId: string, entryId: string) =>
    byCalendar.set(calendarId, [...(byCalendar.get(calendarId) ?? []), entryId]);
  for (const s of items.flatMap((i) => i.services)) {
    add(s.staffer_uuid, s.entry_id);
    for (const u of s.units ?? []) add(u.calendar_id, u.entry_id);
  }
  return byCalendar;
}
