import { count } from "drizzle-orm";
import { idIn } from "../../db/bounded";
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
    .where(idIn(workspaces.shard, shards))
    .groupBy(workspaces.shard);
  const held = new Map(rows.map((r) => [r.shard, r.n]));
  const fewest = (best: string, shard: string) =>
    (held.get(shard) ?? 0) < (held.get(best) ?? 0) ? shard : best;
  return shards.reduce(fewest);
}
