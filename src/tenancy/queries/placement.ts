import { count, inArray } from "drizzle-orm";
import type { Database } from "../../db/client";
import { workspaces } from "../../db/schema";

/**
 * The shard a new workspace goes to: the one holding the fewest workspaces
 * (one grouped count on the directory), the first in order on a tie. A shard
 * with none is not in the count and wins at once.
 */
export async function emptiestShard(directory: Database, shards: readonly string[]) {
  const rows = await directory
    .select({ shard: workspaces.shard, n: count() })
    .from(workspaces)
    .where(inArray(workspaces.shard, [...shards]))
    .groupBy(workspaces.shard);
  const held = new Map(rows.map((r) => [r.shard, r.n]));
  let best = shards[0]!;
  for (const shard of shards) if ((held.get(shard) ?? 0) < (held.get(best) ?? 0)) best = shard;
  return best;
}
