import { nextWakeUp } from "../queries/message-delivery";
import type { Env } from "../../platform/env";
import { backgroundDb } from "../../db/background";
import { dispatchDue } from "./dispatch";

/**
 * After enqueuing, the clock looks again this much later: a queue message
 * lost on the way (or a delivery that died without its queue redelivering)
 * is enqueued again, until the message is settled.
 */
export const RECHECK_MS = 60_000;

/** One tick of a workspace's clock: enqueue what is due; when to tick next (null: nothing left). */
export async function tick(
  env: Env,
  workspaceId: string,
  now = Date.now(),
): Promise<number | null> {
  const { enqueued, more } = await dispatchDue(env, { now, workspaceId });
  const next = await nextWakeUp(backgroundDb(env), workspaceId, now);
  if (more) return now + 1_000;
  const recheck = enqueued > 0 ? now + RECHECK_MS : Infinity;
  const at = Math.min(next ?? Infinity, recheck);
  return Number.isFinite(at) ? at : null;
}
