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
}

export interface HeldItem {
  datetime_start: string;
  services: HeldService[];
}

export const heldItems = (row: ReservationRow): HeldItem[] => JSON.parse(row.items) as HeldItem[];

/** The calendar entries a reservation holds, per staffer (what a booking or a release replaces). */
export function heldEntriesByStaffer(items: readonly HeldItem[]): Map<string, string[]> {
  const byStaffer = new Map<string, string[]>();
  for (const s of items.flatMap((i) => i.services)) {
    byStaffer.set(s.staffer_uuid, [...(byStaffer.get(s.staffer_uuid) ?? []), s.entry_id]);
  }
  return byStaffer;
}

/** Unused, not deleted, and not expired at `now`: exact to the millisecond, whatever the alarm did. */
export const isLive = (row: ReservationRow, now: number) =>
  row.releasedAt === null && row.expiresAt > now;

export function renderReservation(row: ReservationRow) {
  return {
    uuid: row.id,
    location_uuid: row.locationId,
    expires_at: toIso(row.expiresAt),
    items: heldItems(row).map((item) => ({
      datetime_start: item.datetime_start,
      services: item.services.map((s) => ({
        service_uuid: s.service_uuid,
        staffer_uuid: s.staffer_uuid,
        starts_at: s.starts_at,
        ends_at: s.ends_at,
      })),
    })),
  };
}

export type ReservationView = ReturnType<typeof renderReservation>;
