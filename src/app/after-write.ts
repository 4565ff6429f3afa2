import type { Env } from "../platform/env";
import type { Effect } from "../platform/effects";
import { log } from "../platform/log";
import { deliverCreated } from "../messages/delivery/wake-up";
import { dispatchEvents } from "../webhooks/dispatch";
import { settleCancelledBooking } from "../payments/settle";
import { wakeDesks } from "../waitlist/wake";
import { backgroundDb } from "../db/background";
import { rebuildReports } from "../reports/rebuild/rebuild-reports";
import { saleLinesOf } from "./sale-lines";

/**
 * Acts on what committed writes produced: outbox events to the webhook
 * queue, created messages to the message queue (or their workspace's clock
 * when due later), freed time to its location's waitlist desk, a canceled
 * booking's online money to its settlement (refund, fee), a location's zone change
 * to its reports' rebuild. One failure does
 * not keep the others from going; each has its safety net (the cron sweeps,
 * the message clock, the payments' reconcile) should this never run or fail.
 */
export async function dispatchEffects(env: Env, effects: readonly Effect[]): Promise<void> {
  const events = new Map<string, Set<string>>();
  const messages = new Map<string, Map<string, { id: string; dueAt: number }>>();
  const freed = new Map<string, { locationId: string; dueAt: number }[]>();
  const settlements = new Map<string, Effect & { kind: "payment-settlement" }>();
  const zones = new Map<string, Effect & { kind: "zone-changed" }>();
  for (const e of effects) {
    if (e.kind === "zone-changed") zones.set(e.locationId, e);
    else if (e.kind === "event") inGroup(events, e.workspaceId, () => new Set()).add(e.eventId);
    else if (e.kind === "payment-settlement") settlements.set(e.bookingId, e);
    else if (e.kind === "message")
      inGroup(messages, e.workspaceId, () => new Map()).set(e.messageId, {
        id: e.messageId,
        dueAt: e.dueAt,
      });
    else inGroup(freed, e.workspaceId, () => []).push(e);
  }
  await Promise.all([
    ...[...events].map(([workspaceId, ids]) =>
      dispatchEvents(env, workspaceId, [...ids]).catch((error: unknown) =>
        log("error", "outbox dispatch failed", { error }),
      ),
    ),
    ...[...messages].map(([workspaceId, created]) =>
      deliverCreated(env, workspaceId, [...created.values()]).catch((error: unknown) =>
        log("error", "message dispatch failed", { error }),
      ),
    ),
    ...[...freed].map(([workspaceId, time]) =>
      wakeDesks(env, workspaceId, time).catch((error: unknown) =>
        log("error", "waitlist wake-up failed", { error }),
      ),
    ),
    ...[...settlements.values()].map(({ workspaceId, bookingId, cause }) =>
      settleCancelledBooking(env, workspaceId, bookingId, dispatchEffects, cause).catch(
        (error: unknown) => log("error", "payment settlement failed", { error }),
      ),
    ),
    ...[...zones.values()].map(({ workspaceId, locationId, at }) =>
      rebuildAfterZoneChange(env, workspaceId, locationId, at).catch((error: unknown) =>
        log("error", "reports rebuild after a zone change failed", { error, locationId }),
      ),
    ),
  ]);
}

/**
 * Its rollups from the change on follow the location's new days (the days
 * before keep their zone); the admin rebuild route repairs it should this fail.
 */
async function rebuildAfterZoneChange(
  env: Env,
  workspaceId: string,
  locationId: string,
  at: number,
) {
  const handle = await backgroundDb(env, workspaceId);
  if (handle) await rebuildReports({ db: handle.db, workspaceId }, saleLinesOf, locationId, at);
}

function inGroup<V>(groups: Map<string, V>, key: string, empty: () => V): V {
  let group = groups.get(key);
  if (!group) groups.set(key, (group = empty()));
  return group;
}
