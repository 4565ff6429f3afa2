import type { ReservationRow } from "../db/queries/reservations";
import { toIso } from "../lib/clock";

/** A held service as stored in `reservations.items`: the API's fields and its calendar entry. */
export interface HeldService {
  service_uuid: string;
  staffer_uuid: string;
  starts_at: string;
  ends_at: string;
  /** The `calendar_entries` row (and calendar object entry) that holds its time. */
  entry_id: string;
  /** The resource units it holds (absent in reservations made before resources). */
  units?: { calendar_id: string; resource_uuid: string; entry_id: string }[];
}

export interface HeldItem {
  datetime_start: string;
  services: HeldService[];
}

export const heldItems = (row: ReservationRow): HeldItem[] => JSON.parse(row.items) as HeldItem[];

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

/** Unused, not deleted, and not expired at `now`: exact to the millisecond, whatever the alarm did. */
export const isLive = (row: ReservationRow, now: number) =>
  row.releasedAt === null && row.expiresAt > now;

export function renderReservation(row: ReservationRow) {
  return {
    uuid: row.id,
    location_uuid: row.locationId,
    expires_at: toIso(row.expiresAt),
    held_by: row.keyKind,
    items: heldItems(row).map((item) => ({
      datetime_start: item.datetime_start,
      services: item.services.map((s) => ({
        service_uuid: s.service_uuid,
        staffer_uuid: s.staffer_uuid,
        starts_at: s.starts_at,
        ends_at: s.ends_at,
        resource_uuids: (s.units ?? []).map((u) => u.resource_uuid),
      })),
    })),
  };
}

export type ReservationView = ReturnType<typeof renderReservation>;
