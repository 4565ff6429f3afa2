import { z } from "zod";
import { parseJsonColumn } from "../db/json-column";

// The items a reservation stores: read by the reservation's own use-cases and by the
// calendar client, which drops an ended reservation's entries from every calendar it took.

/** A held service as stored in `reservations.items`: the API's fields and its calendar entry. */
export const HeldServiceSchema = z.object({
  service_uuid: z.string(),
  staffer_uuid: z.string(),
  starts_at: z.string(),
  ends_at: z.string(),
  /** The `calendar_entries` row (and calendar object entry) that holds its time. */
  entry_id: z.string(),
  /** Seats of a group service (absent: 1, and in reservations made before sessions). */
  quantity: z.number().int().optional(),
  /** The resource units it takes (absent in reservations made before resources). */
  units: z
    .array(z.object({ calendar_id: z.string(), resource_uuid: z.string(), entry_id: z.string() }))
    .optional(),
});

export const HeldItemsSchema = z.array(
  z.object({ datetime_start: z.string(), services: z.array(HeldServiceSchema) }),
);

export type HeldService = z.infer<typeof HeldServiceSchema>;
export type HeldItem = z.infer<typeof HeldItemsSchema>[number];

export const heldItems = (row: { items: string; id?: string }): HeldItem[] =>
  parseJsonColumn(HeldItemsSchema, row.items, { column: "reservations.items", id: row.id });

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
