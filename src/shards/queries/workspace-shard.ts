import { eq } from "drizzle-orm";
import type { Database } from "../../db/client";
import { workspaces } from "../../db/schema";

/** Where the directory says the workspace lives, read now (no cache: a move decides on it). */
export async function workspaceShard(
  directory: Database,
  workspaceId: string,
): Promise<string | null> {
  const [row] = await directory
    .select({ shard: workspaces.shard })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId));
  return row?.shard ?? null;
}
