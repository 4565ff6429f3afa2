import { freedSince, overdueFreed } from "./queries/waitlist";
import type { Env } from "../platform/env";
import { backgroundDb } from "../db/background";
import { wakeDesk } from "./object/client";

/**
 * After a write: the desks of the locations whose time it recorded as freed
 * (the triggers on calendar entries did, in its own transaction) are woken
 * for when it comes due. One indexed read; no desk call when it freed nothing
 * anyone waits for. If this never runs, the cron sweep wakes them.
 */
export async function wakeDesks(env: Env, workspaceId: string, since: number): Promise<void> {
  const freed = await freedSince(backgroundDb(env), workspaceId, since);
  await Promise.all(freed.map((f) => wakeDesk(env, workspaceId, f.locationId, f.dueAt)));
}

/** Freed time due for this long without its desk having run: the wake-up was lost. */
const OVERDUE_MS = 30_000;
const SWEEP_LIMIT = 200;

/** The cron's share: desks whose freed time is overdue are woken now. */
export async function sweepWaitlists(env: Env, now = Date.now()): Promise<void> {
  const overdue = await overdueFreed(backgroundDb(env), now - OVERDUE_MS, SWEEP_LIMIT);
  await Promise.all(overdue.map((d) => wakeDesk(env, d.workspaceId, d.locationId, now)));
}
