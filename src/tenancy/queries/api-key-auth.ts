import { eq } from "drizzle-orm";
import type { Database } from "../../db/client";
import { apiKeys, workspaces } from "../../db/schema";

/**
 * The key row by its public id, with its workspace (settings and shard): one
 * statement on the directory, for authentication and routing.
 */
export async function findApiKey(directory: Database, keyId: string) {
  const [row] = await directory
    .select({ key: apiKeys, workspace: workspaces })
    .from(apiKeys)
    .innerJoin(workspaces, eq(workspaces.id, apiKeys.workspaceId))
    .where(eq(apiKeys.id, keyId))
    .limit(1);
  return row;
}
