import { configOf } from "../platform/config";
import { runBatch } from "../db/client";
import { insertDeliveries, readFanOut } from "./queries/webhooks";
import { retryDelaySeconds } from "../platform/rules/backoff";
import type { Env } from "../platform/env";
import { log } from "../platform/log";
import { backgroundDb, MOVE_WAIT_SECONDS, movedAway } from "../db/background";
import type { Database } from "../db/client";
import { deliverWebhookMessage } from "./deliver-webhook-message";
import { workspaceOfEvent } from "./event-home";
import { eventListener } from "./event-listener";
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
      let workspaceId = message.body.workspaceId ?? null;
      try {
        workspaceId ??= await workspaceOfEvent(env, message.body.eventId);
        const handle = workspaceId ? await backgroundDb(env, workspaceId) : null;
        if (!workspaceId || !handle) {
          // The event's workspace is gone (or the event with it): nothing left to send.
          log("warn", "webhook message of a workspace that is gone", {
            event_id: message.body.eventId,
          });
          message.ack();
          return;
        }
        if (message.body.kind === "event") {
          await fanOut(env, handle.db, workspaceId, message.body.eventId, mailer);
          message.ack();
        } else {
          await deliverWebhookMessage(
            env,
            handle.db,
            message as Message<Extract<WebhookMessage, { kind: "delivery" }>>,
          );
        }
      } catch (error) {
        if (workspaceId && movedAway(error, workspaceId)) {
          // A move paused the workspace's writes: the same work later, on whichever shard it is.
          await postpone(env, message, { ...message.body, workspaceId });
          return;
        }
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

/**
 * A message whose workspace is moving comes back once the move may be over,
 * as a new message: waiting out a move spends none of the queue's retries,
 * which would dead-letter a delivery a long move kept waiting. Should the
 * send fail, the queue retries the message itself. Either way the attempt
 * counts in D1 keep a copy from sending twice.
 */
async function postpone(env: Env, message: Message<WebhookMessage>, body: WebhookMessage) {
  try {
    await env.WEBHOOK_QUEUE.send(body, { delaySeconds: MOVE_WAIT_SECONDS });
    message.ack();
  } catch (error) {
    log("error", "webhook message could not be put off", { error });
    message.retry({ delaySeconds: MOVE_WAIT_SECONDS });
  }
}

async function fanOut(
  env: Env,
  db: Database,
  workspaceId: string,
  eventId: string,
  mailer: Mailer,
) {
  const read = await readFanOut(db, eventId);
  const event = read.event;
  if (!event) return;
  await fanOutToWebhooks(env, db, workspaceId, eventId, read, mailer);
  // After the customers' webhooks, and never at their cost: a listener's failure is logged and
  // the event acknowledged all the same (what it lost, the listener's own repair brings back:
  // Google's next feed upload).
  try {
    await eventListener()(env, event);
  } catch (error) {
    log("error", "event listener failed; the event's webhooks went out regardless", {
      error,
      event_id: eventId,
      event_type: event.type,
    });
  }
}

async function fanOutToWebhooks(
  env: Env,
  db: Database,
  workspaceId: string,
  eventId: string,
  { event, subscribed, mailedWebhookIds }: Awaited<ReturnType<typeof readFanOut>>,
  mailer: Mailer,
) {
  if (!event) return;
  if (subscribed.length === 0) return;

  // Queues take at most 100 messages per sendBatch; a workspace may have more webhooks.
  for (let i = 0; i < subscribed.length; i += SEND_BATCH) {
    await env.WEBHOOK_QUEUE.sendBatch(
      subscribed.slice(i, i + SEND_BATCH).map((w) => ({
        body: {
          kind: "delivery",
          eventId,
          webhookId: w.id,
          workspaceId,
        } satisfies WebhookMessage,
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
