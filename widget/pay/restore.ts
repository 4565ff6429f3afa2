import type { Reservation, SlotChoice } from "../types";

export interface HeldChoice {
  services: string[];
  /** "" (anyone) unless every service is with one staffer. */
  staffer: string;
  seats: Record<string, number>;
  chosen: SlotChoice;
}

/**
 * What a held reservation stands for, read back from it when this tab kept nothing (storage
 * refused): the customer then sees their choice again and only retypes their details.
 */
export function heldChoice(held: Reservation): HeldChoice | null {
  const item = held.items?.[0];
  if (!item) return null;
  const staffers = new Set(item.services.map((s) => s.staffer_uuid));
  return {
    services: item.services.map((s) => s.service_uuid),
    staffer: staffers.size === 1 ? ([...staffers][0] ?? "") : "",
    seats: Object.fromEntries(
      item.services.filter((s) => s.quantity > 1).map((s) => [s.service_uuid, s.quantity]),
    ),
    chosen: { start: item.datetime_start },
  };
}
