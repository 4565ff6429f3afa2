import { allShards, sweepDb } from "../db/shards";
import type { Env } from "../platform/env";
import { eventWorkspace } from "./queries/outbox";

/**
 * The workspace of an outbox event, for a queue message that does not name
 * it (queued before shards): the event is looked for on each database in
 * turn, the directory first, where every such event was written.
 */
export async function workspaceOfEvent(env: Env, eventId: string): Promise<string | null> {
  for (const shard of allShards(env)) {
    const workspaceId = await eventWorkspace(sweepDb(env, shard), eventId);
    if (workspaceId) return workspaceId;
  }
  return null;
}
