import type { Database } from "./client";
import { isWorkspaceNotHere } from "./constraints";
import { D1Counter, instrumentD1 } from "./instrumented-d1";
import {
  allShards,
  forgetPlacement,
  placementOf,
  shardBinding,
  type ShardHandle,
  sweepDb,
  tenantHandle,
} from "./shards";
import type { Env } from "../platform/env";
import { log } from "../platform/log";

/**
 * One workspace's D1 for work outside a request (a queue consumer, a Durable
 * Object, a cron's step on that workspace): on the shard the directory names,
 * through the same wrapper as requests (D1's parameter limit, the placement
 * check on every call). `d1` is the same handle as raw D1, for the callers
 * that write SQL text (the calendar objects' ledger).
 */
export type BackgroundHandle = Pick<ShardHandle, "db" | "d1" | "shard">;

/**
 * Null when the directory knows no such workspace (never created, or gone):
 * its background work has nothing left to do.
 */
export async function backgroundDb(
  env: Env,
  workspaceId: string,
  counter: D1Counter = new D1Counter(),
): Promise<BackgroundHandle | null> {
  const shard = await placementOf(env, workspaceId);
  // On the primary (the default): background work decides on what it reads (a lease, a
  // fence), never on a replica's past.
  return shard ? tenantHandle(env, shard, workspaceId, { counter }) : null;
}

/**
 * A move paused the workspace's writes, or it left the shard this isolate
 * believed: the remembered placement is dropped so the retry asks the
 * directory again. True when that is what `error` says; the caller then puts
 * the work off (a queue message later, an alarm re-armed), never drops it.
 */
export function movedAway(error: unknown, workspaceId: string): boolean {
  if (!isWorkspaceNotHere(error)) return false;
  forgetPlacement(workspaceId);
  return true;
}

/** How long background work waits for a workspace a move is carrying. */
export const MOVE_WAIT_SECONDS = 10;

/**
 * A cron's sweep over every database that may hold workspace rows, the
 * directory first (workspaces from before shards): one shard failing does not
 * keep the others from being swept; the run then fails with the first error.
 */
export const sweepEveryShard = (
  env: Env,
  sweep: (db: Database, shard: string) => Promise<unknown>,
): Promise<void> => onEveryShard(env, (shard) => sweep(sweepDb(env, shard), shard));

/**
 * A prune (SQL text over a whole shard) on every database in turn: its
 * statements leave alone the rows of workspaces not open on the shard, which
 * is the placement check of a write no one workspace owns.
 */
export const pruneEveryShard = (
  env: Env,
  prune: (d1: D1Database) => Promise<unknown>,
): Promise<void> => onEveryShard(env, (shard) => prune(instrumentD1(shardBinding(env, shard))));

async function onEveryShard(env: Env, work: (shard: string) => Promise<unknown>): Promise<void> {
  const results = await Promise.allSettled(allShards(env).map(work));
  const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed) throw failed.reason;
}

/**
 * Whether the workspace lives on `shard` as the directory says: a sweep acts
 * only on its own shard's workspaces. The rows a move left behind (copied
 * away, or not yet switched to) are the other shard's to sweep.
 */
export const livesOn = async (env: Env, workspaceId: string, shard: string): Promise<boolean> =>
  (await placementOf(env, workspaceId)) === shard;

/**
 * A sweep's work on each of a shard's workspaces it read, one after the
 * other (a run's subrequests stay bounded): the workspaces the directory
 * places elsewhere are left out (`livesOn`), and one that fails is logged
 * without keeping the others from their turn.
 */
export async function eachWorkspaceOn(
  env: Env,
  shard: string,
  workspaceIds: Iterable<string>,
  task: string,
  work: (workspaceId: string) => Promise<unknown>,
): Promise<void> {
  for (const workspaceId of new Set(workspaceIds)) {
    try {
      if (await livesOn(env, workspaceId, shard)) await work(workspaceId);
    } catch (error) {
      if (!movedAway(error, workspaceId))
        log("error", `${task} failed for a workspace`, { workspace_id: workspaceId, error });
    }
  }
}
