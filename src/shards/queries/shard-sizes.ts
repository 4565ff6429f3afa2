import { count, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { workspaces } from "../../db/schema";

/** The directory's count of workspaces per shard (a shard with none is absent). */
export async function workspacesPerShard(directory: Database): Promise<Map<string, number>> {
  const rows = await directory
    .select({ shard: workspaces.shard, n: count() })
    .from(workspaces)
    .groupBy(workspaces.shard);
  return new Map(rows.map((r) => [r.shard, r.n]));
}

/** The database's size in bytes, as D1 reports it after any statement (`meta.size_after`). */
export async function databaseSize(db: Database): Promise<number> {
  const result = await db.run(sql`select 1`);
  return (result.meta as { size_after?: number }).size_after ?? 0;
}
