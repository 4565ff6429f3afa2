import { and, eq } from "drizzle-orm";
import { idIn } from "../../db/bounded";
import type { Database } from "../../db/client";
import { type Placement, workspaces } from "../../db/schema";

/** The workspace's placement in this database (its own row there), or null: it has no row here. */
export async function placementHere(db: Database, workspaceId: string): Promise<Placement | null> {
  const [row] = await db
    .select({ placement: workspaces.placement })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId));
  return row?.placement ?? null;
}

/**
 * Sets the workspace's placement in this database, only from one of `from`
 * (so a step repeated after a crash, or run late, changes nothing it should
 * not). Answers whether the row now says `to`.
 */
export async function setPlacement(
  db: Database,
  workspaceId: string,
  to: Placement,
  from: readonly Placement[],
): Promise<boolean> {
  await db
    .update(workspaces)
    .set({ placement: to })
    .where(and(eq(workspaces.id, workspaceId), idIn(workspaces.placement, from)));
  return (await placementHere(db, workspaceId)) === to;
}
