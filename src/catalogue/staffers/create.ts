import type { Scope } from "../../db/scope";
import type { ScheduleInput } from "../queries/staffers";
import { insertStaffer, workspaceLocationIds } from "../queries/staffer-records";
import { type ScheduleSubject, validateSchedule } from "../rules/schedule";
import { InvalidError, invalid } from "../../platform/errors";

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

/** What a new staffer can be wrong about: its locations, its schedule. */
export type NewStafferSubject = { is: "locations" } | ScheduleSubject;

/**
 * Creates a staffer with its locations, weekly schedule and date overrides.
 * 404 Workspace for an unknown workspace; 422 about the locations when one is
 * not the workspace's, and about the schedule when the staffer could not work
 * it. Returns the row and its location ids.
 */
export async function createStaffer(scope: Scope, input: NewStafferInput) {
  const locationIds = [...new Set(input.locationIds)];
  const mine = await workspaceLocationIds(scope, locationIds);
  const unknown = locationIds.filter((id) => !mine.has(id));
  if (unknown.length > 0) {
    throw invalid({ is: "locations" }, `Unknown location: ${unknown.join(", ")}.`);
  }
  const schedule = { intervals: input.schedule ?? [], overrides: input.overrides ?? [] };
  const problems = validateSchedule(schedule.intervals, schedule.overrides, mine);
  if (problems.length > 0) throw new InvalidError(problems);

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
