import type { Scope } from "../../db/scope";
import type { ScheduleInput } from "../queries/staffers";
import { loadStafferLocations, replaceSchedule } from "../queries/staffer-records";
import { validateSchedule } from "../rules/schedule";
import { InvalidError, notFound } from "../../platform/errors";

/**
 * Replaces a staffer's weekly schedule and date overrides. 404 Staffer when
 * the workspace has no such staffer; 422 about the schedule's parts the
 * staffer could not work (a location it is not attached to, overlapping
 * intervals, …; `ScheduleSubject`).
 * Returns the schedule now in force.
 */
export async function replaceStafferSchedule(
  scope: Scope,
  stafferId: string,
  input: { intervals: ScheduleInput["intervals"]; overrides?: ScheduleInput["overrides"] },
): Promise<ScheduleInput> {
  const attached = await loadStafferLocations(scope, stafferId);
  if (!attached.found) throw notFound("Staffer");
  const schedule = { intervals: input.intervals, overrides: input.overrides ?? [] };
  const problems = validateSchedule(
    schedule.intervals,
    schedule.overrides,
    new Set(attached.locationIds),
  );
  if (problems.length > 0) throw new InvalidError(problems);
  await replaceSchedule(scope, stafferId, schedule);
  return schedule;
}
