import { leaseEvents, leasePendingEvents, markDispatched } from "./queries/outbox";
import type { Env } from "../platform/env";
import { backgroundDb } from "../db/background";
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
  opts: { workspaceId?: string; createdBefore?: number; maxRounds?: number } = {},
): Promise<number> {
  const db = backgroundDb(env);
  let sent = 0;
  for (let round = 0; round < (opts.maxRounds ?? 20); round++) {
    const now = Date.now();
    const pending = await leasePendingEvents(db, {
      now,
      leaseMs: DISPATCH_LEASE_MS,
      limit: BATCH,
      workspaceId: opts.workspaceId,
      createdBefore: opts.createdBefore,
    });
    if (pending.length === 0) break;
    await env.WEBHOOK_QUEUE.sendBatch(
      pending.map((e) => ({ body: { kind: "event", eventId: e.id } satisfies WebhookMessage })),
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
export async function dispatchEvents(env: Env, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const db = backgroundDb(env);
  let sent = 0;
  for (let i = 0; i < ids.length; i += BATCH) {
    const leased = await leaseEvents(db, {
      ids: ids.slice(i, i + BATCH),
      now: Date.now(),
      leaseMs: DISPATCH_LEASE_MS,
    });
    if (leased.length === 0) continue;
    await env.WEBHOOK_QUEUE.sendBatch(
      leased.map((e) => ({ body: { kind: "event", eventId: e.id } satisfies WebhookMessage })),
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

export const sweepOutbox = (env: Env, now = Date.now()) =>
  dispatchPending(env, { createdBefore: now - SWEEP_GRACE_MS });
