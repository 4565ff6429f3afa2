import { configOf } from "../config";
import { runBatch } from "../db/client";
import {
  type AttemptEffect,
  insertDelivery,
  readDelivery,
  webhookAfterAttempt,
  type WebhookRow,
} from "../db/queries/webhooks";
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
  const { hook, event, delivered } = await readDelivery(db, { eventId, webhookId });
  // Deleted or disabled since, or delivered by a duplicate message: nothing to do.
  if (
    !hook ||
    !event ||
    hook.status !== "enabled" ||
    delivered ||
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
  const effect = attemptEffect(hook, { success: result.success, gone, failedEvent });
  const record = insertDelivery(db, {
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
    ...(effect
      ? [
          webhookAfterAttempt(db, hook.id, effect, {
            now,
            disableAfter: FAILED_EVENTS_BEFORE_DISABLE,
          }),
        ]
      : []),
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
function attemptEffect(
  hook: WebhookRow,
  outcome: { success: boolean; gone: boolean; failedEvent: boolean },
): AttemptEffect | null {
  if (outcome.success) return hook.consecutiveFailures > 0 ? "recovered" : null;
  if (outcome.gone) return "gone";
  return outcome.failedEvent ? "failed-event" : null;
}
