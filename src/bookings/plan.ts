import type { CalendarEntry } from "../calendar/types";
import { MINUTE } from "../domain/duration";

/** A booking about to be written: ids are chosen up front so claims and rows share them. */
export interface PlannedService {
  /** booking_services id, also the calendar entry id of its busy time. */
  id: string;
  serviceId: string;
  stafferId: string;
  position: number;
  name: string;
  start: number;
  end: number;
  duration: number;
  buffer: number;
  price: number;
  originalPrice: number;
  taxName: string | null;
  taxRateBp: number | null;
}

export interface PlannedBooking {
  id: string;
  services: PlannedService[];
}

export const bookingStart = (b: PlannedBooking) => Math.min(...b.services.map((s) => s.start));
export const bookingEnd = (b: PlannedBooking) => Math.max(...b.services.map((s) => s.end));

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
