import { and, eq, sql } from "drizzle-orm";
import { configOf } from "../config";
import { insertRows } from "../db/bounded";
import { runBatch } from "../db/client";
import { events, webhookDeliveries, webhooks } from "../db/schema";
import { retryDelaySeconds } from "../domain/webhooks/backoff";
import type { Env } from "../env";
import { toIso } from "../lib/clock";
import { backgroundDb } from "./db";
import { attemptDelivery } from "./deliver";
import { logMailer, type Mailer } from "./mailer";
import type { Envelope, WebhookMessage } from "./messages";

/** A webhook whose every try failed for this many events in a row is switched off. */
export const FAILED_EVENTS_BEFORE_DISABLE = 5;

type EventRow = typeof events.$inferSelect;

/** Queues accept at most 100 messages per sendBatch. */
const SEND_BATCH = 100;

const envelopeOf = (e: EventRow): Envelope => ({
  id: e.id,
  type: e.type,
  created_at: toIso(e.createdAt),
  workspace: e.workspaceId,
  data: e.payload,
});

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
  // Messages are independent (one event, or one webhook's delivery), so a batch runs them side by side.
  await Promise.all(
    batch.messages.map(async (message) => {
      try {
        if (message.body.kind === "event") {
          await fanOut(env, message.body.eventId, mailer);
          message.ack();
        } else {
          await deliver(env, message as Message<Extract<WebhookMessage, { kind: "delivery" }>>);
        }
      } catch (e) {
        // Unexpected (D1 unavailable…): the queue retries, then dead-letters it.
        console.error(
          JSON.stringify({ level: "error", message: "webhook message failed", error: String(e) }),
        );
        message.retry();
      }
    }),
  );
}

async function fanOut(env: Env, eventId: string, mailer: Mailer) {
  const db = backgroundDb(env);
  const ofEvent = (column: typeof events.workspaceId | typeof events.type) =>
    sql`(select ${column} from ${events} where ${events.id} = ${eventId})`;
  const [found, subscribed, mailed] = await db.batch([
    db.select().from(events).where(eq(events.id, eventId)),
    db
      .select()
      .from(webhooks)
      .where(
        and(
          sql`${webhooks.workspaceId} = ${ofEvent(events.workspaceId)}`,
          eq(webhooks.status, "enabled"),
          sql`exists (select 1 from json_each(${webhooks.events}) where value = ${ofEvent(events.type)})`,
        ),
      ),
    db
      .select({ webhookId: webhookDeliveries.webhookId })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.eventId, eventId), eq(webhookDeliveries.kind, "email"))),
  ]);
  const event = found[0];
  if (!event || subscribed.length === 0) return;

  // Queues take at most 100 messages per sendBatch; a workspace may have more webhooks.
  for (let i = 0; i < subscribed.length; i += SEND_BATCH) {
    await env.WEBHOOK_QUEUE.sendBatch(
      subscribed.slice(i, i + SEND_BATCH).map((w) => ({
        body: { kind: "delivery", eventId, webhookId: w.id } satisfies WebhookMessage,
      })),
    );
  }

  const alreadyMailed = new Set(mailed.map((m) => m.webhookId));
  const toMail = subscribed.filter(
    (w) => w.sendNotification && w.emails && !alreadyMailed.has(w.id),
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
  await runBatch(db, insertRows(db, webhookDeliveries, rows));
}

async function deliver(env: Env, message: Message<Extract<WebhookMessage, { kind: "delivery" }>>) {
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
  if (outcome.gone) return { status: "disabled" as const, updatedAt: now };
  if (!outcome.failedEvent) return null;
  return {
    consecutiveFailures: sql`${webhooks.consecutiveFailures} + 1`,
    status: sql<
      "enabled" | "disabled"
    >`case when ${webhooks.consecutiveFailures} + 1 >= ${FAILED_EVENTS_BEFORE_DISABLE} then 'disabled' else ${webhooks.status} end`,
    updatedAt: now,
  };
}
