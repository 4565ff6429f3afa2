import { configOf } from "../platform/config";
import { runBatch } from "../db/client";
import { insertDeliveries, readFanOut } from "./queries/webhooks";
import { retryDelaySeconds } from "../platform/rules/backoff";
import type { Env } from "../platform/env";
import { log } from "../platform/log";
import { backgroundDb } from "../db/background";
import { deliverWebhookMessage } from "./deliver-webhook-message";
import { logMailer, type Mailer } from "./mailer";
import { envelopeOf, type WebhookMessage } from "./messages";

/** Queues accept at most 100 messages per sendBatch. */
const SEND_BATCH = 100;

/**
 * Consumes WEBHOOK_QUEUE. An event message fans out into one delivery message
 * per subscribed, enabled webhook of the event's own workspace, so each
 * webhook retries on its own schedule without re-sending to the others.
 */
export async function consumeWebhookBatch(
  batch: MessageBatch<WebhookMessage>,
  env: Env,
  mailer: Mailer = logMailer,
) {
  // Messages are independent (one event, or one webhook's delivery), so a batch runs them side by
  // side, and each is acknowledged or retried on its own: the handler never throws, nor retries
  // the batch as a whole.
  await Promise.all(
    batch.messages.map(async (message) => {
      try {
        if (message.body.kind === "event") {
          await fanOut(env, message.body.eventId, mailer);
          message.ack();
        } else {
          await deliverWebhookMessage(
            env,
            message as Message<Extract<WebhookMessage, { kind: "delivery" }>>,
          );
        }
      } catch (error) {
        // Unexpected (D1 unavailable…): this message alone goes back to the queue, after a
        // backoff, and is dead-lettered by the queue past max_retries; the others are unaffected.
        log("error", "webhook message failed", { error });
        message.retry({
          delaySeconds: retryDelaySeconds(
            message.attempts,
            configOf(env).webhookRetryBaseSeconds,
            Math.random(),
          ),
        });
      }
    }),
  );
}

async function fanOut(env: Env, eventId: string, mailer: Mailer) {
  const db = backgroundDb(env);
  const { event, subscribed, mailedWebhookIds } = await readFanOut(db, eventId);
  if (!event || subscribed.length === 0) return;

  // Queues take at most 100 messages per sendBatch; a workspace may have more webhooks.
  for (let i = 0; i < subscribed.length; i += SEND_BATCH) {
    await env.WEBHOOK_QUEUE.sendBatch(
      subscribed.slice(i, i + SEND_BATCH).map((w) => ({
        body: { kind: "delivery", eventId, webhookId: w.id } satisfies WebhookMessage,
      })),
    );
  }

  const toMail = subscribed.filter(
    (w) => w.sendNotification && w.emails && !mailedWebhookIds.has(w.id),
  );
  if (toMail.length === 0) return;
  const envelope = envelopeOf(event);
  const rows = [];
  for (const hook of toMail) {
    const started = Date.now();
    let error: string | null = null;
    try {
      await mailer.send({
        to: hook.emails.split(","),
        subject: `[${event.type}] ${hook.description || "webhook notification"}`,
        text: JSON.stringify(envelope, null, 2),
      });
    } catch (e) {
      error = String(e instanceof Error ? e.message : e);
    }
    rows.push({
      id: crypto.randomUUID(),
      workspaceId: event.workspaceId,
      webhookId: hook.id,
      eventId,
      eventType: event.type,
      kind: "email" as const,
      attempt: 1,
      statusCode: null,
      success: error === null,
      error,
      durationMs: Date.now() - started,
      createdAt: Date.now(),
    });
  }
  // One row per mailed webhook, in statements under D1's parameter limit, as one batch.
  await runBatch(db, insertDeliveries(db, rows));
}
