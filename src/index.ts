import { createApp } from "./app";
import { pruneFences } from "./calendar/ledger";
import { pruneExpired } from "./db/prune";
import type { Env } from "./env";
import { consumeWebhookBatch } from "./webhooks/consumer";
import { sweepOutbox } from "./webhooks/dispatch";
import type { WebhookMessage } from "./webhooks/messages";

export { StafferCalendar } from "./durable-objects/staffer-calendar";

const app = createApp();

export default {
  fetch: app.fetch,
  queue: (batch, env) => consumeWebhookBatch(batch, env),
  scheduled: async (_controller, env, ctx) => {
    ctx.waitUntil(sweepOutbox(env));
    ctx.waitUntil(pruneFences(env.DB));
    ctx.waitUntil(pruneExpired(env.DB));
  },
} satisfies ExportedHandler<Env, WebhookMessage>;
