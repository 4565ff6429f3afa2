import type { engineInputs } from "../calendar/engine-input";
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
export const claimEntry = (e: { id: string; startsAt: number; endsAt: number }) => ({
  id: e.id,
  kind: "booking" as const,
  start: e.startsAt,
  end: e.endsAt,
});
