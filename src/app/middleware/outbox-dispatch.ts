import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { PublicEnv } from "../../http/env";
import { log } from "../../platform/log";
import { dispatchPending } from "../../webhooks/dispatch";

/**
 * Once a write succeeded (not a GET or HEAD, no error status, a workspace),
 * runs `send` for its workspace after the response has gone out (waitUntil),
 * logging `failure` if it throws. Only once the API key passed its check (it
 * may still be running): a refused request answers its error, and must not
 * set anything moving, not even others' pending work.
 */
export function afterWrite(
  c: Context<PublicEnv>,
  failure: string,
  send: (workspaceId: string) => Promise<unknown>,
): void {
  const method = c.req.method;
  if (method === "GET" || method === "HEAD" || c.res.status >= 400) return;
  const workspaceId = c.var.workspace?.id;
  if (!workspaceId) return;
  const dispatch = c.var.gate.pass().then(
    () => send(workspaceId),
    () => undefined,
  );
  c.executionCtx.waitUntil(dispatch.catch((error: unknown) => log("error", failure, { error })));
}

/**
 * After a write succeeds, hands the workspace's new outbox events to the queue
 * once the response has gone out (waitUntil), so callers never wait on it. If
 * this never runs (the isolate dies), the cron sweep sends them.
 */
export const outboxDispatch = createMiddleware<PublicEnv>(async (c, next) => {
  await next();
  afterWrite(c, "outbox dispatch failed", (workspaceId) =>
    dispatchPending(c.env, { workspaceId, maxRounds: 1 }),
  );
});
