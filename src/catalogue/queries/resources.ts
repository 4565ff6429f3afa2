import { asc, count, eq } from "drizzle-orm";
import type { PageRequest } from "../../platform/pagination";
import { locations, resources } from "../../db/schema";
import { type Scope, whereIn } from "../../db/scope";
import { listInWorkspace } from "../../db/queries/list";
import { assertWorkspaceFound, selectWorkspaceId } from "../../db/queries/workspace-exists";

export type ResourceRow = typeof resources.$inferSelect;

const atLocation = (locationId: string | undefined) =>
  locationId === undefined ? undefined : eq(resources.locationId, locationId);

/** Public: a page of the authenticated workspace's resources, optionally of one location. */
export const listResources = (scope: Scope, page: PageRequest, locationId?: string) =>
  listInWorkspace(scope, resources, page, atLocation(locationId));

/**
 * Management: the same page, with the workspace's existence read in the same
 * batch (the admin token names no workspace): 404 Workspace when unknown.
 */
export async function listWorkspaceResources(scope: Scope, page: PageRequest, locationId?: string) {
  const { db } = scope;
  const where = whereIn(scope, resources, atLocation(locationId));
  const [found, totals, rows] = await db.batch([
    selectWorkspaceId(db, scope.workspaceId),
    db.select({ total: count() }).from(resources).where(where),
    db
      .select()
      .from(resources)
      .where(where)
      .orderBy(asc(resources.createdAt), asc(resources.id))
      .limit(page.perPage)
      .offset(page.offset),
  ]);
  assertWorkspaceFound(found);
  return { rows, total: totals[0]?.total ?? 0 };
}

/** One batch: 404 Workspace when unknown, else whether the location is the workspace's. */
export async function workspaceHasLocation(scope: Scope, locationId: string) {
  const { db } = scope;
  const [found, location] = await db.batch([
    selectWorkspaceId(db, scope.workspaceId),
    db
      .select({ id: locations.id })
      .from(locations)
      .where(whereIn(scope, locations, eq(locations.id, locationId))),
  ]);
  assertWorkspaceFound(found);
  return location.length > 0;
}

export async function insertResource(scope: Scope, row: typeof resources.$inferInsert) {
  await scope.db.insert(resources).values(row);
}

/** The workspace's resource, or undefined (another workspace's, or none). */
export async function findResource(scope: Scope, id: string): Promise<ResourceRow | undefined> {
  const [row] = await scope.db
    .select()
    .from(resources)
    .where(whereIn(scope, resources, eq(resources.id, id)));
  return row;
}
