import { eq } from "drizzle-orm";
import { idIn, insertRows } from "../../db/bounded";
import { runBatch } from "../../db/client";
import { locations, stafferLocations, staffers } from "../../db/schema";
import { type Scope, whereIn } from "../../db/scope";
import { replaceScheduleStatements, type ScheduleInput } from "./staffers";
import { assertWorkspaceFound, selectWorkspaceId } from "../../db/queries/workspace-exists";

/** The staffer's id when the workspace has that staffer, else undefined. */
export async function findStafferId(scope: Scope, stafferId: string) {
  const [found] = await scope.db
    .select({ id: staffers.id })
    .from(staffers)
    .where(whereIn(scope, staffers, eq(staffers.id, stafferId)));
  return found?.id;
}

/** One batch: whether the staffer exists in the workspace, and the locations it is attached to. */
export async function loadStafferLocations(scope: Scope, stafferId: string) {
  const { db } = scope;
  const [found, attached] = await db.batch([
    db
      .select({ id: staffers.id })
      .from(staffers)
      .where(whereIn(scope, staffers, eq(staffers.id, stafferId))),
    db
      .select({ locationId: stafferLocations.locationId })
      .from(stafferLocations)
      .where(whereIn(scope, stafferLocations, eq(stafferLocations.stafferId, stafferId))),
  ]);
  return { found: found.length > 0, locationIds: attached.map((a) => a.locationId) };
}

/**
 * One batch: 404 Workspace for an unknown workspace, else which of the given
 * location ids are the workspace's (another workspace's count as unknown).
 */
export async function workspaceLocationIds(scope: Scope, ids: readonly string[]) {
  const { db, workspaceId } = scope;
  const [found, known] = await db.batch([
    selectWorkspaceId(db, workspaceId),
    db
      .select({ id: locations.id })
      .from(locations)
      .where(whereIn(scope, locations, idIn(locations.id, ids))),
  ]);
  assertWorkspaceFound(found);
  return new Set(known.map((l) => l.id));
}

export type NewStaffer = typeof staffers.$inferInsert;

/** One batch (all or nothing): the staffer, its locations, its schedule and overrides. */
export async function insertStaffer(
  scope: Scope,
  row: NewStaffer,
  locationIds: readonly string[],
  schedule: ScheduleInput,
) {
  const { db, workspaceId } = scope;
  await db.batch([
    db.insert(staffers).values(row),
    ...insertRows(
      db,
      stafferLocations,
      locationIds.map((locationId) => ({ workspaceId, stafferId: row.id, locationId })),
    ),
    ...replaceScheduleStatements(scope, row.id, schedule),
  ]);
}

/** One batch: replaces the staffer's weekly schedule and date overrides. */
export async function replaceSchedule(scope: Scope, stafferId: string, schedule: ScheduleInput) {
  await runBatch(scope.db, replaceScheduleStatements(scope, stafferId, schedule));
}
