import { eq } from "drizzle-orm";
import { accounts, locations } from "../../db/schema";
import { type Scope, whereIn } from "../../db/scope";
import { assertWorkspaceFound, selectWorkspaceId } from "../../db/queries/workspace-exists";

export type NewAccount = Pick<
  typeof accounts.$inferInsert,
  "locationId" | "name" | "type" | "createdAt"
>;

/**
 * Creates a payment account of a location. Throws 404 Workspace for an
 * unknown workspace; returns null when the location is not the workspace's
 * (another workspace's location is as unknown as a made-up one).
 */
export async function createAccount(scope: Scope, input: NewAccount) {
  const { db, workspaceId } = scope;
  const [found, location] = await db.batch([
    selectWorkspaceId(db, workspaceId),
    db
      .select({ id: locations.id })
      .from(locations)
      .where(whereIn(scope, locations, eq(locations.id, input.locationId))),
  ]);
  assertWorkspaceFound(found);
  if (location.length === 0) return null;
  const [row] = await db
    .insert(accounts)
    .values({ id: crypto.randomUUID(), workspaceId, ...input })
    .returning();
  if (!row) throw new Error("insert returned no row");
  return row;
}
