import { nextWakeUp } from "../queries/message-delivery";
import type { Env } from "../../platform/env";
import type { Next } from "../../platform/alarm-loop";
import { backgroundDb, movedAway } from "../../db/background";
import { dispatchDue } from "./dispatch";

/**
 * After enqueuing, the clock looks again this much later: a queue message
 * lost on the way (or a delivery that died without its queue redelivering)
 * is enqueued again, until the message is settled.
 */
export const RECHECK_MS = 60_000;

/**
 * One tick of a workspace's clock, on the workspace's shard: enqueue what is
 * due; when to tick next (null: nothing left; "stop": the workspace is gone).
 * A move pausing the workspace throws, and the clock's loop tries again.
 */
export async function tick(env: Env, workspaceId: string, now = Date.now()): Promise<Next> {
  const handle = await backgroundDb(env, workspaceId);
  if (!handle) return "stop";
  let enqueued: number, more: boolean, next: number | null;
  try {
    ({ enqueued, more } = await dispatchDue(env, workspaceId, now, handle.db));
    next = await nextWakeUp(handle.db, workspaceId, now);
  } catch (error) {
    // The loop ticks again shortly; by then the directory's answer is asked afresh.
    movedAway(error, workspaceId);
    throw error;
  }
  if (more) return now + 1_000;
  const recheck = enqueued > 0 ? now + RECHECK_MS : Infinity;
  const at = Math.min(next ?? Infinity, recheck);
  return Number.isFinite(at) ? at : null;
}
