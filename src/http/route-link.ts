import type { Context } from "hono";
import type { Database } from "../db/client";
import { placementOf } from "../db/shards";
import type { OpenEnv } from "./env";

/**
 * Routes a request that carries no API key (a link's token names its
 * workspace) to the workspace's shard: from this isolate's memory of the
 * directory, else one directory read. Null when the directory knows no such
 * workspace: the caller answers what it answers for a token that opens
 * nothing, so a link tells nobody whether a workspace exists.
 */
export async function routeLink(
  c: Context<OpenEnv>,
  workspaceId: string,
): Promise<Database | null> {
  const id = workspaceId.toLowerCase();
  const shard = await placementOf(c.env, id, c.var.directory);
  return shard ? c.var.routeTo(id, shard) : null;
}
