import { eq } from "drizzle-orm";
import { notFound } from "../../platform/errors";
import type { Database } from "../client";
import { workspaces } from "../schema";

/**
 * The statement that reads a workspace's id, to ride in a request's batch
 * (no row: the workspace does not exist). `id` is already lower case.
 */
export const selectWorkspaceId = (db: Database, id: string) =>
  db.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.id, id));

/** Throws 404 Workspace when the batch's workspace read found nothing. */
export function assertWorkspaceFound(rows: readonly unknown[]): void {
  if (rows.length === 0) throw notFound("Workspace");
}
