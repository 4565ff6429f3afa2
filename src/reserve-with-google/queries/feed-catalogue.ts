import { and, asc, eq } from "drizzle-orm";
import { locations, serviceLocations, services, workspaces } from "../../db/schema";
import { type Scope, whereIn } from "../../db/scope";
import { shownInWidget } from "../../catalogue/queries/services";

/**
 * The feeds' bounds: no workspace has come near them, and a feed that stops
 * short would delete the rest from Google (PROCESS_AS_COMPLETE), so past them
 * a feed is refused rather than cut (one more row is read to know).
 */
export const FEED_LIMITS = { locations: 1000, offers: 20_000 } as const;

const byCreation = [asc(locations.createdAt), asc(locations.id)];

/** The workspace's locations in feed order (creation): shard N of the availability is the Nth. */
export const feedLocations = (scope: Scope) =>
  scope.db
    .select()
    .from(locations)
    .where(whereIn(scope, locations, undefined))
    .orderBy(...byCreation)
    .limit(FEED_LIMITS.locations + 1);

/**
 * The workspace, its locations and each service offered at each of them that a
 * customer may see online (`shownInWidget`; payment terms are the caller's test),
 * in one D1 batch. Null when the workspace is unknown here.
 */
export async function feedCatalogue(scope: Scope) {
  const { db } = scope;
  const [workspace, locationRows, offers] = await db.batch([
    db.select().from(workspaces).where(eq(workspaces.id, scope.workspaceId)).limit(1),
    feedLocations(scope),
    db
      .select({ locationId: serviceLocations.locationId, service: services })
      .from(serviceLocations)
      .innerJoin(services, eq(services.id, serviceLocations.serviceId))
      .where(
        and(whereIn(scope, serviceLocations, undefined), whereIn(scope, services, shownInWidget)),
      )
      .orderBy(asc(serviceLocations.locationId), asc(services.id))
      .limit(FEED_LIMITS.offers + 1),
  ]);
  if (!workspace[0]) return null;
  return { workspace: workspace[0], locations: locationRows, offers };
}

/** The workspace and its locations in feed order, in one D1 batch (null: unknown workspace). */
export async function feedWorkspaceLocations(scope: Scope) {
  const { db } = scope;
  const [workspace, locationRows] = await db.batch([
    db.select().from(workspaces).where(eq(workspaces.id, scope.workspaceId)).limit(1),
    feedLocations(scope),
  ]);
  if (!workspace[0]) return null;
  return { workspace: workspace[0], locations: locationRows };
}
