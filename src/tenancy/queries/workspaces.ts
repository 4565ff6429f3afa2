import { eq } from "drizzle-orm";
import { notFound } from "../../platform/errors";
import type { Database } from "../../db/client";
import { workspaces } from "../../db/schema";
import type { Statement } from "../../db/statement";

export async function requireWorkspace(db: Database, id: string) {
  const [row] = await db
    .select()
    .from(workspaces)
    .where(eq(workspaces.id, id.toLowerCase()))
    .limit(1);
  if (!row) throw notFound("Workspace");
  return row;
}

export const insertWorkspace = (db: Database, row: typeof workspaces.$inferInsert) =>
  db.insert(workspaces).values(row);

/**
 * Rows another module gives every new workspace (its booking statuses), written in the
 * workspace's own batch. The composition root hands them in: tenancy sits below the
 * modules that own them.
 */
export type WorkspaceSeed = (db: Database, workspaceId: string, createdAt: number) => Statement[];
