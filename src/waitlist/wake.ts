import { overdueFreed } from "./queries/waitlist";
import type { Env } from "../platform/env";
import { eachWorkspaceOn, sweepEveryShard } from "../db/background";
import { wakeDesk } from "./object/client";

/**
 * After a write: the desks of the locations whose time it reported freeing
 * (the triggers on calendar entries recorded it, in its own transaction) are
 * woken for when it comes due, one call per location. If this never runs,
 * the cron sweep wakes them.
 */
export async function wakeDesks(
  env: Env,
  workspaceId: string,
  freed: readonly { locationId: string; dueAt: number }[],
): Promise<void> {
  const first = new Map<string, number>();
  for (const f of freed)
    first.set(f.locationId, Math.min(f.dueAt, first.get(f.locationId) ?? f.dueAt));
  await Promise.all(
    [...first].map(([locationId, at]) => wakeDesk(env, workspaceId, locationId, at)),
  );
}

/** Freed time due for this long without its desk having run: the wake-up was lost. */
const OVERDUE_MS = 30_000;
const SWEEP_LIMIT = 200;

/**
 * The cron's share: desks whose freed time is overdue are woken now, shard by
 * shard (a desk's pass finds its workspace's shard itself); the freed time
 * left on a shard its workspace moved away from is the move's to clean up.
 */
export const sweepWaitlists = (env: Env, now = Date.now()): Promise<void> =>
  sweepEveryShard(env, async (db, shard) => {
    const overdue = await overdueFreed(db, now - OVERDUE_MS, SWEEP_LIMIT);
    await eachWorkspaceOn(
      env,
      shard,
      overdue.map((d) => d.workspaceId),
      "waitlist sweep",
      (workspaceId) =>
        Promise.all(
          overdue
            .filter((d) => d.workspaceId === workspaceId)
            .map((d) => wakeDesk(env, workspaceId, d.locationId, now)),
        ),
    );
  });
