import type { ReservationRow } from "../queries/reservations";
import { heldItems } from "../held-items";
import { toIso } from "../../platform/clock";

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
        quantity: s.quantity ?? 1,
        starts_at: s.starts_at,
        ends_at: s.ends_at,
        resource_uuids: (s.units ?? []).map((u) => u.resource_uuid),
      })),
    })),
  };
}

export type ReservationView = ReturnType<typeof renderReservation>;
