import { eq, isNull } from "drizzle-orm";
import { apiKeys } from "../../db/schema";
import { type Scope, whereIn } from "../../db/scope";
import { assertWorkspaceFound, selectWorkspaceId } from "../../db/queries/workspace-exists";

/**
 * Revokes a live key in one batch. The row is kept (revoked_at set) so an
 * audit can still tell which key was used when. Throws 404 Workspace for an
 * unknown workspace; returns false when no live key has that id.
 */
export async function revokeApiKey(scope: Scope, keyId: string, at: number) {
  const { db, workspaceId } = scope;
  const [found, revoked] = await db.batch([
    selectWorkspaceId(db, workspaceId),
    db
      .update(apiKeys)
      .set({ revokedAt: at })
      .where(whereIn(scope, apiKeys, eq(apiKeys.id, keyId), isNull(apiKeys.revokedAt)))
      .returning({ id: apiKeys.id }),
  ]);
  assertWorkspaceFound(found);
  return revoked.length > 0;
}
