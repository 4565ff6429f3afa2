import type { engineInputs } from "../availability/engine-input";
import { checkStart } from "../domain/availability";
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
