import {
  leaseEvents,
  leasePendingEvents,
  markDispatched,
  workspacesWithPendingEvents,
} from "./queries/outbox";
import type { Env } from "../platform/env";
import { backgroundDb, eachWorkspaceOn, sweepEveryShard } from "../db/background";
import type { WebhookMessage } from "./messages";

/** A lease not followed by a send within this time (the isolate died) is taken over by the sweep. */
const DISPATCH_LEASE_MS = 60_000;

/** Queues accept at most 100 messages per sendBatch. */
const BATCH = 100;

/**
 * Hands outbox events not yet on the queue to it: lease, send, mark.
 * Concurrent requests never send the same event; a crash after the lease
 * leaves the lease to expire and the sweep to send it, so an event is sent
 * more than once only after a crash between send and mark, never zero times.
 */
export async function dispatchPending(
  env: Env,
  workspaceId: string,
  opts: { createdBefore?: number; maxRounds?: number } = {},
): Promise<number> {
  const handle = await backgroundDb(env, workspaceId);
  if (!handle) return 0;
  const { db } = handle;
  let sent = 0;
  for (let round = 0; round < (opts.maxRounds ?? 20); round++) {
    const now = Date.now();
    const pending = await leasePendingEvents(db, {
      now,
      leaseMs: DISPATCH_LEASE_MS,
      limit: BATCH,
      workspaceId,
      createdBefore: opts.createdBefore,
    });
    if (pending.length === 0) break;
    await env.WEBHOOK_QUEUE.sendBatch(
      pending.map((e) => ({
        body: { kind: "event", eventId: e.id, workspaceId } satisfies WebhookMessage,
      })),
    );
    await markDispatched(
      db,
      pending.map((e) => e.id),
      Date.now(),
    );
    sent += pending.length;
    if (pending.length < BATCH) break;
  }
  return sent;
}

/**
 * Hands the outbox events a write reported (by id) to the queue: lease them
 * (those the sweep or another already took are left out), send, mark — the
 * protocol of `dispatchPending`, so the sweep never resends what this sent,
 * nor loses what a crash here left leased (it takes it once the lease ends).
 * Two statements for a write with events, none for one without.
 */
export async function dispatchEvents(
  env: Env,
  workspaceId: string,
  ids: readonly string[],
): Promise<number> {
  if (ids.length === 0) return 0;
  const handle = await backgroundDb(env, workspaceId);
  if (!handle) return 0;
  const { db } = handle;
  let sent = 0;
  for (let i = 0; i < ids.length; i += BATCH) {
    const leased = await leaseEvents(db, {
      ids: ids.slice(i, i + BATCH),
      now: Date.now(),
      leaseMs: DISPATCH_LEASE_MS,
    });
    if (leased.length === 0) continue;
    await env.WEBHOOK_QUEUE.sendBatch(
      leased.map((e) => ({
        body: { kind: "event", eventId: e.id, workspaceId } satisfies WebhookMessage,
      })),
    );
    await markDispatched(
      db,
      leased.map((e) => e.id),
      Date.now(),
    );
    sent += leased.length;
  }
  return sent;
}

/** The cron sweep: events older than a minute that a request failed to hand over. */
export const SWEEP_GRACE_MS = 60_000;
/** Workspaces a shard's sweep takes per run; the next run, a minute later, takes the rest. */
const SWEEP_WORKSPACES = 200;

/**
 * Every shard's workspaces with such events, each workspace's leased and sent
 * through its own handle (a workspace a move is carrying is left for the next
 * run).
 */
export const sweepOutbox = (env: Env, now = Date.now()) =>
  sweepEveryShard(env, async (db, shard) => {
    const createdBefore = now - SWEEP_GRACE_MS;
    const pending = await workspacesWithPendingEvents(db, {
      now,
      leaseMs: DISPATCH_LEASE_MS,
      createdBefore,
      limit: SWEEP_WORKSPACES,
    });
    await eachWorkspaceOn(env, shard, pending, "outbox sweep", (workspaceId) =>
      dispatchPending(env, workspaceId, { createdBefore }),
    );
  });
