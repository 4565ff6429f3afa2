import { createMiddleware } from "hono/factory";
import type { PublicEnv } from "../http/env";
import { wakeDesks } from "./wake";
import { afterWrite } from "../app/middleware/outbox-dispatch";

/**
 * After a write succeeds, the waitlist desks of the locations whose time it
 * freed are woken once the response has gone out (waitUntil), so the next in
 * line gets an offer within seconds. If this never runs, the cron sweep does it.
 */
export const waitlistDispatch = createMiddleware<PublicEnv>(async (c, next) => {
  const since = Date.now();
  await next();
  afterWrite(c, "waitlist wake-up failed", (workspaceId) => wakeDesks(c.env, workspaceId, since));
});
