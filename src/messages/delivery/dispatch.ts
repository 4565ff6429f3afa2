import { type DueMessage, dueMessages } from "../queries/message-delivery";
import type { Env } from "../../platform/env";
import { backgroundDb } from "../../db/background";
import { enqueueMessages } from "./queue";

/** Rows read per round, and rounds per run: one run enqueues at most 2,000 messages. */
const ROUND = 500;
const MAX_ROUNDS = 4;

/**
 * Enqueues the messages due now: one workspace's (its clock) or every
 * workspace's (the cron sweep, which leaves the last `dueBefore` to the
 * others). Nothing is marked: a message enqueued twice is leased once.
 * Returns how many it enqueued; a full last round means more may be due.
 */
export async function dispatchDue(
  env: Env,
  opts: { now?: number; workspaceId?: string; dueBefore?: number } = {},
): Promise<{ enqueued: number; more: boolean }> {
  const db = backgroundDb(env);
  const now = opts.now ?? Date.now();
  let enqueued = 0;
  let after: DueMessage | undefined;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const due: DueMessage[] = await dueMessages(db, {
      now,
      limit: ROUND,
      workspaceId: opts.workspaceId,
      dueBefore: opts.dueBefore,
      after,
    });
    if (due.length === 0) return { enqueued, more: false };
    await enqueueMessages(env, due);
    enqueued += due.length;
    after = due.at(-1);
    if (due.length < ROUND) return { enqueued, more: false };
  }
  return { enqueued, more: true };
}

/** The cron sweep's grace: messages due in the last minute are their clock's or request's. */
export const MESSAGE_SWEEP_GRACE_MS = 60_000;

/** The production safety net: every workspace's messages due for over a minute. */
export const sweepMessages = (env: Env, now = Date.now()) =>
  dispatchDue(env, { now, dueBefore: now - MESSAGE_SWEEP_GRACE_MS });
