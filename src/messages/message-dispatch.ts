import { createMiddleware } from "hono/factory";
import { deliverCreated } from "./delivery/wake-up";
import type { PublicEnv } from "../http/env";
import { afterWrite } from "../app/middleware/outbox-dispatch";

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
  afterWrite(c, "message dispatch failed", (workspaceId) =>
    deliverCreated(c.env, workspaceId, since),
  );
});
