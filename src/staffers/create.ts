import type { Scope } from "../db/scope";
import type { ScheduleInput } from "../db/queries/staffers";
import { insertStaffer, workspaceLocationIds } from "../db/queries/staffer-records";
import { validateSchedule } from "../domain/schedule";
import { validationError } from "../lib/errors";

export interface NewStafferInput {
  firstName: string;
  lastName?: string;
  email?: string;
  locationIds: string[];
  isActiveInWidget?: boolean;
  permissions?: string[];
  schedule?: ScheduleInput["intervals"];
  overrides?: ScheduleInput["overrides"];
}

/**
 * Creates a staffer with its locations, weekly schedule and date overrides.
 * 404 Workspace for an unknown workspace; 422 on `location_uuids` for a
 * location that is not the workspace's, and on `schedule` / `overrides` for a
 * schedule the staffer could not work. Returns the row and its location ids.
 */
export async function createStaffer(scope: Scope, input: NewStafferInput) {
  const locationIds = [...new Set(input.locationIds)];
  const mine = await workspaceLocationIds(scope, locationIds);
  const unknown = locationIds.filter((id) => !mine.has(id));
  if (unknown.length > 0) {
    throw validationError({ location_uuids: [`Unknown location: ${unknown.join(", ")}.`] });
  }
  const schedule = { intervals: input.schedule ?? [], overrides: input.overrides ?? [] };
  const problems = validateSchedule(schedule.intervals, schedule.overrides, mine);
  if (Object.keys(problems).length > 0) {
    // Field names in the body are `schedule` and `overrides`; the validator speaks of intervals.
    const renamed = Object.fromEntries(
      Object.entries(problems).map(([k, v]) => [k.replace(/^intervals/, "schedule"), v]),
    );
    throw validationError(renamed);
  }

  const row = {
    id: crypto.randomUUID(),
    workspaceId: scope.workspaceId,
    firstName: input.firstName,
    lastName: input.lastName ?? null,
    email: input.email ?? null,
    isActiveInWidget: input.isActiveInWidget ?? true,
    permissions: [...new Set(input.permissions ?? [])],
    createdAt: Date.now(),
  };
  await insertStaffer(scope, row, locationIds, schedule);
  return { row, locationIds };
}
