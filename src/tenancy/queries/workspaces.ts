import { eq } from "drizzle-orm";
import { notFound } from "../../platform/errors";
import type { Database } from "../../db/client";
import { workspaces } from "../../db/schema";

export async function requireWorkspace(db: Database, id: string) {
  const [row] = await db
    .select()
    .from(workspaces)
    .where(eq(workspaces.id, id.toLowerCase()))
    .limit(1);
  if (!row) throw notFound("Workspace");
  return row;
}
