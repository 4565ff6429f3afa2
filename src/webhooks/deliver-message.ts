import { and, eq, sql } from "drizzle-orm";
import { configOf } from "../config";
import { runBatch } from "../db/client";
import { touched } from "../db/queries/webhooks";
import { events, webhookDeliveries, webhooks } from "../db/schema";
import { retryDelaySeconds } from "../domain/webhooks/backoff";
import type { Env } from "../env";
import { backgroundDb } from "./db";
import { attemptDelivery } from "./deliver";
import { envelopeOf, type WebhookMessage } from "./messages";

/** A webhook whose every try failed for this many events in a row is switched off. */
export const FAILED_EVENTS_BEFORE_DISABLE = 5;

/** One delivery message: one try of one event to one webhook, logged, retried or given up. */
export async function deliverMessage(
  env: Env,
  message: Message<Extract<WebhookMessage, { kind: "delivery" }>>,
) {
  const db = backgroundDb(env);
  const { eventId, webhookId } = message.body;
  const [hooks, found, done] = await db.batch([
    db.select().from(webhooks).where(eq(webhooks.id, webhookId)),
    db.select().from(events).where(eq(events.id, eventId)),
    db
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(
        and(
          eq(webhookDeliveries.eventId, eventId),
          eq(webhookDeliveries.webhookId, webhookId),
          eq(webhookDeliveries.kind, "http"),
          eq(webhookDeliveries.success, true),
        ),
      ),
  ]);
  const hook = hooks[0];
  const event = found[0];
  // Deleted or disabled since, or delivered by a duplicate message: nothing to do.
  if (
    !hook ||
    !event ||
    hook.status !== "enabled" ||
    done.length > 0 ||
    hook.workspaceId !== event.workspaceId
  ) {
    message.ack();
    return;
  }

  const attempt = message.attempts;
  const result = await attemptDelivery(hook, envelopeOf(event));
  const gone = result.statusCode === 410;
  const final = result.success || gone || attempt >= hook.tries;
  const failedEvent = !result.success && final;

  const now = Date.now();
  const change = webhookChange(hook, { success: result.success, gone, failedEvent }, now);
  const record = db.insert(webhookDeliveries).values({
    id: crypto.randomUUID(),
    workspaceId: hook.workspaceId,
    webhookId: hook.id,
    eventId,
    eventType: event.type,
    kind: "http",
    attempt,
    statusCode: result.statusCode,
    success: result.success,
    error: result.error ?? (gone ? "410 Gone: webhook disabled" : null),
    durationMs: result.durationMs,
    createdAt: now,
  });
  await runBatch(db, [
    record,
    ...(change ? [db.update(webhooks).set(change).where(eq(webhooks.id, hook.id))] : []),
  ]);

  if (!final) {
    message.retry({
      delaySeconds: retryDelaySeconds(
        attempt,
        configOf(env).webhookRetryBaseSeconds,
        Math.random(),
        result.retryAfterSeconds,
      ),
    });
    return;
  }
  if (failedEvent && !gone) {
    await env.WEBHOOK_DLQ.send({
      ...message.body,
      attempts: attempt,
      lastError: result.error ?? result.statusCode,
    });
  }
  message.ack();
}

/**
 * What one attempt does to its webhook: a success clears the failure count, a
 * 410 switches it off, and an event that failed every try counts towards
 * switching it off; a failure with tries left changes nothing yet.
 */
function webhookChange(
  hook: typeof webhooks.$inferSelect,
  outcome: { success: boolean; gone: boolean; failedEvent: boolean },
  now: number,
) {
  if (outcome.success) return hook.consecutiveFailures > 0 ? { consecutiveFailures: 0 } : null;
  if (outcome.gone) return { status: "disabled" as const, updatedAt: touched(now) };
  if (!outcome.failedEvent) return null;
  return {
    consecutiveFailures: sql`${webhooks.consecutiveFailures} + 1`,
    status: sql<
      "enabled" | "disabled"
    >`case when ${webhooks.consecutiveFailures} + 1 >= ${FAILED_EVENTS_BEFORE_DISABLE} then 'disabled' else ${webhooks.status} end`,
    updatedAt: touched(now),
  };
}
