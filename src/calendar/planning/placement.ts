import type { engineInputs } from "../availability/engine-input";
import {
  checkStart,
  prepareResource,
  type SessionSeats,
  sessionKey,
  type TakenUnits,
  takeUnits,
} from "../rules";
import { busyLength } from "../../platform/rules/duration";
import type { Subject } from "../../platform/rules/problems";
import { ApiError, invalid } from "../../platform/errors";
import { type PlannedUnit, plannedUnit } from "./planner";
import type { PlanIds } from "./plan-ids";
import { ownerColumns } from "../ids";

type Inputs = NonNullable<ReturnType<typeof engineInputs>>;

export interface Placement {
  /** Whose resources the placement needs, one unit of each. */
  serviceId: string;
  stafferId: string;
  start: number;
  durationMin: number;
  bufferMin: number;
  /** Seats of a group service (default 1): the placement joins or opens its session. */
  seats?: number | undefined;
}

const taken = () => new ApiError("slot_unavailable", "The requested time is not available.");
const full = () =>
  new ApiError("session_full", "The session has fewer seats left than the booking takes.");

/**
 * Checks that each placement fits its staffer's working hours and known busy
 * time (the calendars make the final call when claiming). 422 about `about`
 * for the past or outside working hours (the caller names what was asked for:
 * the start of a reschedule, the service replacing another), 409 when taken.
 */
export function assertPlacementsFit(
  inputs: Inputs,
  placements: Placement[],
  now: number,
  about: Subject,
) {
  const refuse = (message: string) => invalid(about, message);
  for (const p of placements) {
    const staffer = inputs.calendars.get(p.stafferId);
    if (!staffer) throw refuse("The staffer does not work at this location.");
    const verdict = checkStart({
      location: inputs.rules,
      staffer,
      durationMin: p.durationMin,
      bufferMin: p.bufferMin,
      start: p.start,
      now,
      session: inputs.sessionOf(p.serviceId, p.seats),
    });
    if (verdict === "in_past")
      throw refuse("The time is in the past or inside the minimum notice.");
    if (verdict === "outside_hours")
      throw refuse("The time is outside the staffer's working hours.");
    if (verdict === "busy") throw taken();
    if (verdict === "full") throw full();
  }
}

/**
 * Each placement's seats in its session (undefined for a one-seat service):
 * what its calendar entries carry, so the calendars count them.
 */
export function seatsOf(inputs: Inputs, placements: Placement[]): (SessionSeats | undefined)[] {
  return placements.map((p) => {
    const ask = inputs.sessionOf(p.serviceId, p.seats);
    return (
      ask && {
        key: sessionKey(p.serviceId, p.stafferId, p.start),
        seats: ask.seats,
        capacity: ask.capacity,
      }
    );
  });
}

/**
 * Takes the first free unit of every resource each placement's service needs,
 * counting units given to earlier placements (409 when a resource has none
 * free); the placement's own current time must be left out of `inputs`.
 * `entryIds` names the entries the same in every plan of one write.
 */
export function unitsFor(
  inputs: Inputs,
  placements: Placement[],
  entryIds?: PlanIds,
): PlannedUnit[][] {
  const resources = new Map(inputs.resources.map((r) => [r.id, prepareResource(r)]));
  const given: TakenUnits = new Map();
  return placements.map((p, i) => {
    const end = p.start + busyLength(p.durationMin, p.bufferMin);
    const key = inputs.sessionOf(p.serviceId) && sessionKey(p.serviceId, p.stafferId, p.start);
    const ids = takeUnits(resources, inputs.resourcesOf(p.serviceId), p.start, end, given, key);
    if (!ids) throw taken();
    return ids.map((id) =>
      plannedUnit(id, entryIds?.(`unit ${i} ${ownerColumns(id).resourceId ?? ""}`)),
    );
  });
}
