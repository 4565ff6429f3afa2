import type { StafferClaim } from "../calendar/client";
import type { engineInputs } from "../calendar/engine-input";
import type { CalendarEntry } from "../calendar/types";
import { checkStart } from "../domain/availability";
import { MINUTE } from "../domain/duration";
import { ApiError, fieldError } from "../lib/errors";

type Inputs = NonNullable<ReturnType<typeof engineInputs>>;

export interface Placement {
  stafferId: string;
  start: number;
  durationMin: number;
  bufferMin: number;
}

/**
 * Checks that each placement fits its staffer's working hours and known busy
 * time (the calendars make the final call when claiming). 422 for the past or
 * outside working hours, 409 when taken.
 */
export function assertPlacementsFit(
  inputs: Inputs,
  placements: Placement[],
  now: number,
  timeField: string,
) {
  for (const p of placements) {
    const staffer = inputs.calendars.get(p.stafferId);
    if (!staffer) throw fieldError(timeField, "The staffer does not work at this location.");
    const verdict = checkStart({
      location: inputs.rules,
      staffer,
      durationMin: p.durationMin,
      bufferMin: p.bufferMin,
      start: p.start,
      now,
    });
    if (verdict === "in_past")
      throw fieldError(timeField, "The time is in the past or inside the minimum notice.");
    if (verdict === "outside_hours")
      throw fieldError(timeField, "The time is outside the staffer's working hours.");
    if (verdict === "busy")
      throw new ApiError("slot_unavailable", "The requested time is not available.");
  }
}

/** Calendar entry of a booked service: its staffer's interval starting at the service's start. */
export const entryOf = <E extends { stafferId: string; startsAt: number }>(
  entries: E[],
  service: { stafferId: string; reservedOn: number },
) => entries.find((e) => e.stafferId === service.stafferId && e.startsAt === service.reservedOn);

export const utcDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * The `calendar_entries` row of a booked service: its staffer is busy from the
 * service's start until its end plus buffer.
 */
export const bookedEntry = (
  at: { workspaceId: string; locationId: string; bookingId: string },
  s: { stafferId: string; reservedOn: number; reservedUntil: number; buffer: number },
  id: string = crypto.randomUUID(),
) => ({
  id,
  workspaceId: at.workspaceId,
  stafferId: s.stafferId,
  locationId: at.locationId,
  kind: "booking" as const,
  sourceId: at.bookingId,
  startsAt: s.reservedOn,
  endsAt: s.reservedUntil + s.buffer * MINUTE,
});

/** The same busy time as an entry of a calendar claim. */
export const claimEntry = (e: {
  id: string;
  sourceId: string;
  startsAt: number;
  endsAt: number;
}): CalendarEntry => ({
  id: e.id,
  kind: "booking",
  source: e.sourceId,
  start: e.startsAt,
  end: e.endsAt,
});

type EntryRow = {
  id: string;
  stafferId: string;
  sourceId: string;
  startsAt: number;
  endsAt: number;
};

/**
 * One claim per staffer touched by a change of busy time: the entries it adds
 * there and the ones it supersedes (which the calendar locks until the write
 * settles, so no other write can replace them meanwhile).
 */
export function movingClaims(removed: EntryRow[], added: EntryRow[]): StafferClaim[] {
  const staffers = [...new Set([...removed, ...added].map((e) => e.stafferId))];
  return staffers.map((stafferId) => ({
    stafferId,
    entries: added.filter((e) => e.stafferId === stafferId).map(claimEntry),
    replaces: removed.filter((e) => e.stafferId === stafferId).map((e) => e.id),
    checkConflicts: true,
  }));
}
