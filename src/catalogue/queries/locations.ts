import { eq } from "drizzle-orm";
import type { PageRequest } from "../../platform/pagination";
import type { Database } from "../../db/client";
import { accounts, locations } from "../../db/schema";
import { ONLINE_ACCOUNT_NAME } from "../rules/online-account";
import { type Scope, whereIn } from "../../db/scope";
import { listInWorkspace } from "../../db/queries/list";
import { locationOffsetsOf, zoneChangedAt } from "./location-offsets";

export const listLocations = (scope: Scope, page: PageRequest) =>
  listInWorkspace(scope, locations, page);

export type LocationChanges = Partial<
  Omit<typeof locations.$inferInsert, "id" | "workspaceId" | "createdAt">
>;

/** Applies a partial update to a workspace's location; null when it has no such location. */
export async function updateLocation(
  db: Database,
  workspaceId: string,
  id: string,
  changes: LocationChanges,
): Promise<typeof locations.$inferSelect | null> {
  const where = whereIn({ db, workspaceId }, locations, eq(locations.id, id));
  if (Object.keys(changes).length === 0) {
    const [row] = await db.select().from(locations).where(where);
    return row ?? null;
  }
  const update = db.update(locations).set(changes).where(where).returning();
  const timezone = changes.timezone;
  if (timezone === undefined) {
    const [row] = await update;
    return row ?? null;
  }
  // The reports' days follow the new zone from now on, in the same batch.
  const [rows] = await db.batch([
    update,
    ...zoneChangedAt(db, { workspaceId, locationId: id, timezone }, Date.now()),
  ]);
  return rows[0] ?? null;
}

/**
 * A new location with its online account (what customers pay through the
 * payment provider is booked there), in one batch: no location is ever
 * without one.
 */
export async function insertLocation(db: Database, row: typeof locations.$inferInsert) {
  const [created] = await db.batch([
    db.insert(locations).values(row).returning(),
    db.insert(accounts).values(onlineAccountOf(row)),
    // The location's clock for the reports' days, from its first moment.
    locationOffsetsOf(db, {
      workspaceId: row.workspaceId,
      locationId: row.id,
      timezone: row.timezone,
    }),
  ]);
  return created;
}

/** The online account a location is created with. */
export const onlineAccountOf = (location: typeof locations.$inferInsert) => ({
  id: crypto.randomUUID(),
  workspaceId: location.workspaceId,
  locationId: location.id,
  name: ONLINE_ACCOUNT_NAME,
  type: "online" as const,
  createdAt: location.createdAt,
});
