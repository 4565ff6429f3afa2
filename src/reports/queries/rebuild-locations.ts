import { and, eq, sql } from "drizzle-orm";
import { locationOffsets, locations } from "../../db/schema";
import type { Scope } from "../../db/scope";

/** A workspace's locations to rebuild (one, or all), and whether each has its offsets yet. */
export const rebuildLocations = (scope: Scope, locationId?: string) =>
  scope.db
    .select({
      id: locations.id,
      timezone: locations.timezone,
      hasOffsets: sql<number>`exists (select 1 from ${locationOffsets} o where o.location_id = ${locations.id})`,
    })
    .from(locations)
    .where(
      and(
        eq(locations.workspaceId, scope.workspaceId),
        locationId === undefined ? undefined : eq(locations.id, locationId),
      ),
    )
    .orderBy(locations.id);
