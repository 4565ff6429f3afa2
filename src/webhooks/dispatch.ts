import { and, asc, eq, isNull, lt, lte, or } from "drizzle-orm";
import { idIn, inSubquery } from "../db/bounded";
import { events } from "../db/schema";
import type { Env } from "../env";
import { backgroundDb } from "./db";
import type { WebhookMessage } from "./messages";

/** A claim not followed by a send within this time (the isolate died) is taken over by the sweep. */
const CLAIM_LEASE_MS = 60_000;

/** Queues accept at most 100 messages per sendBatch. */
const BATCH = 100;

/**
 * Hands outbox events not yet on the queue to it: claim (a lease), send, mark.
 * Concurrent requests never send the same event; a crash after the claim
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
    const candidates = db
      .select({ id: events.id })
      .from(events)
      .where(
        and(
          isNull(events.dispatchedAt),
          or(isNull(events.claimedAt), lt(events.claimedAt, now - CLAIM_LEASE_MS)),
          opts.workspaceId ? eq(events.workspaceId, opts.workspaceId) : undefined,
          opts.createdBefore !== undefined ? lte(events.createdAt, opts.createdBefore) : undefined,
        ),
      )
      .orderBy(asc(events.createdAt))
      .limit(BATCH);
    // One UPDATE picks and claims (D1 runs statements one at a time), so
    // concurrent dispatchers never take the same event.
    const pending = await db
      .update(events)
      .set({ claimedAt: now })
      .where(inSubquery(events.id, candidates))
      .returning({ id: events.id });
    if (pending.length === 0) break;
    await env.WEBHOOK_QUEUE.sendBatch(
      pending.map((e) => ({ body: { kind: "event", eventId: e.id } satisfies WebhookMessage })),
    );
    await db
      .update(events)
      .set({ dispatchedAt: Date.now() })
      // One JSON parameter for the ids: 100 ids plus the timestamp would pass D1's limit.
      .where(
        idIn(
          events.id,
          pending.map((e) => e.id),
        ),
      );
    sent += pending.length;
    if (pending.length < BATCH) break;
  }
  return sent;
}

/** The cron sweep: events older than a minute that a request failed to hand over. */
export const SWEEP_GRACE_MS = 60_000;

export const sweepOutbox = (env: Env, now = Date.now()) =>
  dispatchPending(env, { createdBefore: now - SWEEP_GRACE_MS });
