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

export type WorkspaceChanges = Partial<
  Pick<typeof workspaces.$inferInsert, "name" | "brandName" | "brandLogoUrl" | "brandAccentColor">
>;

/** The workspace with `changes` written (one statement), or a 404 when there is none. */
export async function updateWorkspace(db: Database, id: string, changes: WorkspaceChanges) {
  if (Object.keys(changes).length === 0) return requireWorkspace(db, id);
  const [row] = await db
    .update(workspaces)
    .set(changes)
    .where(eq(workspaces.id, id.toLowerCase()))
    .returning();
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
