import { sql } from "drizzle-orm";
import type { Database } from "../client";
import { workspaceCounters } from "../schema";

/**
 * Bumps the workspace's order sequence; in the same batch, `orderNumberSql`
 * reads the bumped value, so numbers stay unique and increasing under races.
 */
export function bumpOrderNumber(db: Database, workspaceId: string) {
  return db
    .insert(workspaceCounters)
    .values({ workspaceId, name: "order_number", value: 1 })
    .onConflictDoUpdate({
      target: [workspaceCounters.workspaceId, workspaceCounters.name],
      set: { value: sql`${workspaceCounters.value} + 1` },
    });
}

export const orderNumberSql = (workspaceId: string) =>
  sql<number>`(select ${workspaceCounters.value} from ${workspaceCounters} where ${workspaceCounters.workspaceId} = ${workspaceId} and ${workspaceCounters.name} = 'order_number')`;
