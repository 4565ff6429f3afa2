import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { Env } from "../../src/platform/env";
import worker from "../../src/index";
import type { WebhookMessage } from "../../src/webhooks/messages";
import { everyShard } from "./every-shard";

/**
 * Drives the Worker's queue handler by hand, as @cloudflare/vitest-pool-workers
 * documents it: a batch from `createMessageBatch`, the handler, then
 * `getQueueResult` for what the handler acked and retried. A test sees the
 * consumer's decision (ack, retry with a delay) directly instead of waiting
 * for the real queue to redeliver, and chooses `attempts` itself.
 */

/** The queue the Worker consumes (wrangler.toml). */
export const WEBHOOK_QUEUE = "salon-webhooks";

export interface QueuedMessage<B = WebhookMessage> {
  body: B;
  /** The queue's id for the message; a retried message keeps it. */
  id?: string;
  /** Which delivery of the message this is, from 1. */
  attempts?: number;
}

/**
 * What `getQueueResult` reports: the messages acked and retried one by one,
 * and whether the whole batch was (the non-experimental workers types lack it).
 */
export interface QueueOutcome {
  outcome: string;
  ackAll: boolean;
  retryBatch: { retry: boolean; delaySeconds?: number };
  explicitAcks: string[];
  retryMessages: { msgId: string; delaySeconds?: number }[];
}

/** Hands `messages` to the queue handler as one batch of `queue`; returns what it acked and retried. */
export async function consumeFrom<B>(
  queue: string,
  messages: QueuedMessage<B>[],
  bindings: Env = env,
): Promise<QueueOutcome> {
  const handler: ExportedHandler<Env, B> = worker as ExportedHandler<Env, B>;
  const batch = createMessageBatch<B>(
    queue,
    messages.map((m) => ({
      id: m.id ?? crypto.randomUUID(),
      timestamp: new Date(),
      attempts: m.attempts ?? 1,
      body: m.body,
    })),
  );
  const ctx = createExecutionContext();
  await handler.queue?.(batch, bindings, ctx);
  return getQueueResult(batch, ctx);
}

/** Hands webhook queue `messages` to the queue handler as one batch. */
export const consume = (messages: QueuedMessage[], bindings: Env = env) =>
  consumeFrom(WEBHOOK_QUEUE, messages, bindings);

/** One try of one event to one webhook. */
export const delivery = (eventId: string, webhookId: number): WebhookMessage => ({
  kind: "delivery",
  eventId,
  webhookId,
});

/** An outbox event to fan out to its workspace's webhooks. */
export const event = (eventId: string): WebhookMessage => ({ kind: "event", eventId });

/**
 * Outbox events written straight to D1, as a write's batch would. `handedOver`
 * marks them as already on the queue, so neither a request's dispatch nor the
 * cron sweep sends them to the real queue: the test hands them to the
 * consumer itself. Otherwise they are old enough for the sweep, which leaves
 * the last minute to the requests' own dispatch.
 */
export async function insertEvents(
  workspaceId: string,
  type: string,
  count: number,
  { handedOver = false } = {},
) {
  const ids = Array.from({ length: count }, () => crypto.randomUUID());
  const created = Date.now() - 5 * 60_000;
  await everyShard.batch(
    ids.map((id, i) =>
      everyShard
        .prepare(
          "insert into events (id, workspace_id, type, payload, created_at, dispatched_at) values (?, ?, ?, ?, ?, ?)",
        )
        .bind(
          id,
          workspaceId,
          type,
          JSON.stringify({ n: i }),
          created + i,
          handedOver ? Date.now() : null,
        ),
    ),
  );
  return ids;
}
