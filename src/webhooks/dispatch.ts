import { and, asc, eq, inArray, isNull, lte } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import * as schema from "../db/schema";
import { events } from "../db/schema";
import type { Env } from "../env";
import type { WebhookMessage } from "./messages";

/** Queues accept at most 100 messages per sendBatch. */
const BATCH = 100;

/**
 * Hands outbox events not yet on the queue to it, then marks them. Send first,
 * mark second: a crash in between sends an event twice (the consumer skips a
 * delivery that already succeeded, and receivers dedupe on webhook-id), never
 * zero times.
 */
export async function dispatchPending(
  env: Env,
  opts: { workspaceId?: string; createdBefore?: number; maxRounds?: number } = {},
): Promise<number> {
  const db = drizzle(env.DB, { schema });
  let sent = 0;
  for (let round = 0; round < (opts.maxRounds ?? 20); round++) {
    const pending = await db
      .select({ id: events.id })
      .from(events)
      .where(
        and(
          isNull(events.dispatchedAt),
          opts.workspaceId ? eq(events.workspaceId, opts.workspaceId) : undefined,
          opts.createdBefore !== undefined ? lte(events.createdAt, opts.createdBefore) : undefined,
        ),
      )
      .orderBy(asc(events.createdAt))
      .limit(BATCH);
    if (pending.length === 0) break;
    await env.WEBHOOK_QUEUE.sendBatch(
      pending.map((e) => ({ body: { kind: "event", eventId: e.id } satisfies WebhookMessage })),
    );
    await db
      .update(events)
      .set({ dispatchedAt: Date.now() })
      .where(
        inArray(
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
