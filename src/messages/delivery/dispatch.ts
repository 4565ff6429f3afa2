import { type DueMessage, dueMessages } from "../queries/message-delivery";
import type { Database } from "../../db/client";
import type { Env } from "../../platform/env";
import { backgroundDb, livesOn, sweepEveryShard } from "../../db/background";
import { enqueueMessages } from "./queue";

/** Rows read per round, and rounds per run: one run enqueues at most 2,000 messages. */
const ROUND = 500;
const MAX_ROUNDS = 4;

interface Enqueued {
  enqueued: number;
  more: boolean;
}

/**
 * Enqueues one workspace's messages due now (its clock), read on its shard.
 * Nothing is marked: a message enqueued twice is leased once. Returns how
 * many it enqueued; a full last round means more may be due. A workspace the
 * directory no longer knows has nothing to send.
 */
export async function dispatchDue(
  env: Env,
  workspaceId: string,
  now = Date.now(),
  db?: Database,
): Promise<Enqueued> {
  const handle = db ?? (await backgroundDb(env, workspaceId))?.db;
  if (!handle) return { enqueued: 0, more: false };
  return enqueueDue(env, handle, { now, workspaceId });
}

async function enqueueDue(
  env: Env,
  db: Database,
  opts: { now: number; workspaceId?: string; dueBefore?: number },
  keep: (due: DueMessage[]) => Promise<DueMessage[]> = async (due) => due,
): Promise<Enqueued> {
  let enqueued = 0;
  let after: DueMessage | undefined;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const due: DueMessage[] = await dueMessages(db, { ...opts, limit: ROUND, after });
    if (due.length === 0) return { enqueued, more: false };
    const kept = await keep(due);
    await enqueueMessages(env, kept);
    enqueued += kept.length;
    after = due.at(-1);
    if (due.length < ROUND) return { enqueued, more: false };
  }
  return { enqueued, more: true };
}

/** The cron sweep's grace: messages due in the last minute are their clock's or request's. */
export const MESSAGE_SWEEP_GRACE_MS = 60_000;

/**
 * The production safety net: every workspace's messages due for over a
 * minute, read shard by shard (each queue message names its workspace, and
 * the delivery finds its shard). Rows of a workspace the directory places on
 * another shard (a move's copy) are that shard's to send.
 */
export const sweepMessages = (env: Env, now = Date.now()) =>
  sweepEveryShard(env, (db, shard) =>
    enqueueDue(env, db, { now, dueBefore: now - MESSAGE_SWEEP_GRACE_MS }, async (due) => {
      const here = new Map<string, boolean>();
      for (const workspaceId of new Set(due.map((m) => m.workspaceId)))
        here.set(workspaceId, await livesOn(env, workspaceId, shard));
      return due.filter((m) => here.get(m.workspaceId));
    }),
  );
