import { createApp } from "./app/app";
import { misconfigured } from "./app/misconfigured";
import { pruneFences } from "./calendar/ledger";
import { pruneEveryShard } from "./db/background";
import { pruneExpired } from "./db/prune";
import { consumeMessageBatch } from "./messages/delivery/consumer";
import { dispatchEffects } from "./app/after-write";
import { renewMemberships } from "./payments/renewals/sweep";
import { reconcilePayments } from "./payments/reconcile";
import { sweepMessages } from "./messages/delivery/dispatch";
import { MESSAGE_QUEUE_NAME, type MessageQueueBody } from "./messages/delivery/queue";
import { configOf, settingsAtEntry } from "./platform/config";
import type { Env } from "./platform/env";
import { log } from "./platform/log";
import { consumeWebhookBatch } from "./webhooks/consumer";
import { sweepOutbox } from "./webhooks/dispatch";
import { sweepWaitlists } from "./waitlist/wake";
import { resumeMoves } from "./shards/resume";
import type { WebhookMessage } from "./webhooks/messages";
import { consumeRwgBatch } from "./reserve-with-google/notify/consumer";
import { RWG_QUEUE_NAME, type RwgMessage } from "./reserve-with-google/notify/message";

export { Calendar } from "./calendar/object/calendar";
export { MessageClock } from "./messages/object/message-clock";
export { CalendarSync, WaitlistDesk } from "./app/objects";
export { WebhookSender } from "./webhooks/sender";
export { ShardMover } from "./shards/object/shard-mover";

const app = createApp();

// The settings are parsed once per env object as each entry is reached; a malformed one is
// logged, requests are answered 500, and a batch or cron run fails (the runtime retries it).
export default {
  fetch: (request: Request, env: Env, ctx: ExecutionContext) =>
    settingsAtEntry(env) ? app.fetch(request, env, ctx) : misconfigured(),
  // One handler for every queue the Worker consumes, told apart by the queue's name.
  queue: (batch, env) => {
    configOf(env);
    if (batch.queue === RWG_QUEUE_NAME)
      return consumeRwgBatch(batch as MessageBatch<RwgMessage>, env);
    return batch.queue === MESSAGE_QUEUE_NAME
      ? consumeMessageBatch(batch as MessageBatch<MessageQueueBody>, env)
      : consumeWebhookBatch(batch as MessageBatch<WebhookMessage>, env);
  },
  scheduled: async (controller, env, ctx) => {
    configOf(env);
    // Every sweep goes over every database: the directory (workspaces from before shards),
    // then each shard. A sweep reads a whole shard and writes through each workspace's handle;
    // a prune deletes shard-wide, leaving the rows of workspaces not open there.
    ctx.waitUntil(logged("outbox sweep", sweepOutbox(env)));
    ctx.waitUntil(logged("message sweep", sweepMessages(env)));
    ctx.waitUntil(
      logged(
        "fence pruning",
        pruneEveryShard(env, (d1) => pruneFences(d1)),
      ),
    );
    ctx.waitUntil(
      logged(
        "expired rows pruning",
        pruneEveryShard(env, (d1) => pruneExpired(d1)),
      ),
    );
    ctx.waitUntil(logged("waitlist sweep", sweepWaitlists(env)));
    ctx.waitUntil(logged("shard moves resume", resumeMoves(env)));
    ctx.waitUntil(
      logged("payments reconcile", reconcilePayments(env, { dispatch: dispatchEffects })),
    );
    ctx.waitUntil(
      logged(
        "membership renewals",
        renewMemberships(env, { now: controller.scheduledTime, dispatch: dispatchEffects }),
      ),
    );
  },
} satisfies ExportedHandler<Env, WebhookMessage | MessageQueueBody | RwgMessage>;

/**
 * A cron task's failure, logged through the one redacting logger; the run still
 * fails, with an error that says only where to look (the runtime would log the
 * original, SQL parameters and all).
 */
async function logged(task: string, work: Promise<unknown>): Promise<void> {
  try {
    await work;
  } catch (error) {
    log("error", `${task} failed`, { error });
    // Without its cause on purpose: the runtime would log that too, unredacted.
    // eslint-disable-next-line preserve-caught-error
    throw new Error(`${task} failed; see the log line before this one`);
  }
}
