import { createMiddleware } from "hono/factory";
import { deliverCreated } from "../delivery/wake-up";
import type { PublicEnv } from "../env";
import { log } from "../lib/log";

/**
 * After a write succeeds, the customer messages it created are handed over
 * once the response has gone out (waitUntil): those due now to the queue,
 * the earliest later one (a reminder) to the workspace's clock. If this
 * never runs (the isolate dies), the clock's next tick or the cron sweep
 * sends them.
 */
export const messageDispatch = createMiddleware<PublicEnv>(async (c, next) => {
  const since = Date.now();
  await next();
  const method = c.req.method;
  if (method === "GET" || method === "HEAD" || c.res.status >= 400) return;
  const workspaceId = c.var.workspace?.id;
  if (!workspaceId) return;
  // Only once the API key passed its check, as for the outbox (src/middleware/outbox-dispatch.ts).
  const dispatch = c.var.gate.pass().then(
    () => deliverCreated(c.env, workspaceId, since),
    () => undefined,
  );
  c.executionCtx.waitUntil(
    dispatch.catch((error: unknown) => log("error", "message dispatch failed", { error })),
  );
});
