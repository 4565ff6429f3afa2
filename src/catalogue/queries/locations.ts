import { eq } from "drizzle-orm";
import type { PageRequest } from "../../platform/pagination";
import type { Database } from "../../db/client";
import { locations } from "../../db/schema";
import { type Scope, whereIn } from "../../db/scope";
import { listInWorkspace } from "../../db/queries/list";

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
  const query =
    Object.keys(changes).length > 0
      ? db.update(locations).set(changes).where(where).returning()
      : db.select().from(locations).where(where);
  const [row] = await query;
  return row ?? null;
}

export const insertLocation = (db: Database, row: typeof locations.$inferInsert) =>
  db.insert(locations).values(row).returning();
