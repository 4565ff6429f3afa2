import { createDb } from "../db/client";
import { instrumentD1 } from "../db/instrumented-d1";
import type { Env } from "../platform/env";
import { moverOf } from "./object/client";
import { stalledMoves } from "./queries/moves";

/** A move whose record did not change for this long has lost its runner (or never had one woken). */
export const STALLED_AFTER_MS = 60_000;

/**
 * The cron's part: wakes the runner of every move under way that made no
 * progress for a minute. A runner already at work only has its alarm brought
 * forward; its runs never overlap.
 */
export async function resumeMoves(env: Env, now = Date.now()): Promise<number> {
  const directory = createDb(instrumentD1(env.DB));
  const stalled = await stalledMoves(directory, now - STALLED_AFTER_MS);
  await Promise.all(stalled.map(({ workspaceId }) => moverOf(env, workspaceId).wake(workspaceId)));
  return stalled.length;
}
