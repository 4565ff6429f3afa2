import { eq } from "drizzle-orm";
import type { Database } from "../../db/client";
import { apiKeys, workspaces } from "../../db/schema";

/** The key row by its public id, with its workspace: one statement, for authentication. */
export async function findApiKey(db: Database, keyId: string) {
  const [row] = await db
    .select({ key: apiKeys, workspace: workspaces })
    .from(apiKeys)
    .innerJoin(workspaces, eq(workspaces.id, apiKeys.workspaceId))
    .where(eq(apiKeys.id, keyId))
    .limit(1);
  return row;
}
