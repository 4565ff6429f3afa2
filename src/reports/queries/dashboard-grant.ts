import { eq } from "drizzle-orm";
import type { Database } from "../../db/client";
import { apiKeys, workspaces } from "../../db/schema";

/**
 * What the directory says of a link's workspace and the API key that made it,
 * in one batch: the workspace's language and currency, and whether the key
 * still stands (a revoked key's links open nothing).
 */
export async function dashboardGrantRows(directory: Database, workspaceId: string, keyId: string) {
  const [workspace, key] = await directory.batch([
    directory
      .select({
        locale: workspaces.locale,
        currency: workspaces.currency,
        name: workspaces.name,
      })
      .from(workspaces)
      .where(eq(workspaces.id, workspaceId))
      .limit(1),
    directory
      .select({
        workspaceId: apiKeys.workspaceId,
        kind: apiKeys.kind,
        revokedAt: apiKeys.revokedAt,
      })
      .from(apiKeys)
      .where(eq(apiKeys.id, keyId))
      .limit(1),
  ]);
  const k = key[0];
  return {
    workspace: workspace[0] ?? null,
    keyStands: !!k && k.workspaceId === workspaceId && k.kind === "secret" && k.revokedAt === null,
  };
}
