import { eq, sql } from "drizzle-orm";
import type { Database } from "../client";
import { idSequences } from "../schema";

/**
 * The next id of a sequence the directory keeps for every shard (one
 * statement on the directory): what a shard's own AUTOINCREMENT cannot give,
 * an integer no other shard gives out too, so the row can move anywhere.
 */
export async function nextDirectoryId(directory: Database, name: "webhooks"): Promise<number> {
  const [row] = await directory
    .update(idSequences)
    .set({ last: sql`${idSequences.last} + 1` })
    .where(eq(idSequences.name, name))
    .returning({ id: idSequences.last });
  if (!row) throw new Error(`no id sequence ${name} in the directory`);
  return row.id;
}
