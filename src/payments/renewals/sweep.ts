import { backgroundDb, eachWorkspaceOn, sweepEveryShard } from "../../db/background";
import { isGuardFailure } from "../../db/constraints";
import { collectingEffects } from "../../db/effects";
import { unfinishedTries } from "../../packages/queries/renewal-tries";
import { dueMemberships } from "../../packages/queries/renewals";
import { configOf } from "../../platform/config";
import { type Dispatch, EffectSink } from "../../platform/effects";
import type { Env } from "../../platform/env";
import { log } from "../../platform/log";
import { KEY_LIFETIME_MS } from "../reconcile";
import { stripeClient } from "../providers/stripe";
import { renewMembership, type Renewed } from "./renew";

/**
 * Memberships per shard per run (and as many unfinished tries): the cron comes
 * back every minute for the rest. Whatever the sweep cannot work on moves out
 * of the front of the due query, so the rest is always reached.
 */
export const RENEWAL_LIMIT = 50;

export interface RenewalOptions {
  /** The sweep's clock: the cron's `scheduledTime` (tests drive time through it). */
  now: number;
  limit?: number;
  dispatch?: Dispatch;
}

/**
 * The memberships' renewals, run by the cron: every membership whose charge
 * is due at `now` is charged off-session for the period `now` falls in (once
 * per period and try, whoever runs it), or, when it no longer renews, left to
 * expire; and every try (or refund) whose answer was lost is finished, whatever
 * its membership's state. Every shard is read whole; each workspace found is then worked on
 * through its own handle, so its writes carry the placement check.
 */
export async function renewMemberships(
  env: Env,
  options: RenewalOptions,
): Promise<Record<Renewed, number>> {
  const total: Record<Renewed, number> = {
    renewed: 0,
    declined: 0,
    pending: 0,
    refunded: 0,
    stopped: 0,
    skipped: 0,
  };
  const settings = configOf(env).stripe;
  if (!settings) return total;
  const { now } = options;
  await sweepEveryShard(env, async (sweep, shard) => {
    const limit = options.limit ?? RENEWAL_LIMIT;
    const found = [
      ...(await unfinishedTries(sweep, Date.now() - KEY_LIFETIME_MS, limit)),
      ...(await dueMemberships(sweep, now, limit)),
    ];
    // A membership due with a try unanswered is found twice: worked on once.
    const due = [...new Map(found.map((d) => [d.id, d])).values()];
    const ids = due.map((d) => d.workspaceId);
    await eachWorkspaceOn(env, shard, ids, "membership renewals", async (workspaceId) => {
      const handle = await backgroundDb(env, workspaceId);
      if (!handle) return;
      const sink = new EffectSink();
      const scope = { db: collectingEffects(handle.db, sink), workspaceId };
      const stripe = stripeClient(settings);
      for (const membership of due.filter((d) => d.workspaceId === workspaceId)) {
        try {
          total[await renewMembership(scope, stripe, membership.id, now)] += 1;
        } catch (error) {
          // Another sweep wrote this try's answer first: it is written once, by it.
          if (isGuardFailure(error)) total.skipped += 1;
          else log("error", "membership renewal failed", { error, membership: membership.id });
        }
      }
      await options.dispatch?.(env, sink.take());
    });
  });
  return total;
}
