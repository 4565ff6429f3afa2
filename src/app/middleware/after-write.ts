import { createMiddleware } from "hono/factory";
import { collectingEffects } from "../../db/effects";
import type { OpenEnv } from "../../http/env";
import { EffectSink } from "../../platform/effects";
import { log } from "../../platform/log";
import { dispatchEffects } from "../after-write";

/**
 * The one after-write hook. The request's database hands the effects of
 * every batch that committed to a sink; once the write answered with
 * success (not a GET or HEAD, no error status), they are dispatched after
 * the response has gone out (waitUntil), and only once the API key passed
 * its check (it may still be running): a refused request sets nothing
 * moving. A request that committed nothing dispatches nothing and reads
 * nothing. Routes without a key (a manage or offer link) are covered alike:
 * every effect names its workspace.
 */
export const afterWrite = createMiddleware<OpenEnv>(async (c, next) => {
  const sink = new EffectSink();
  // In place: the request's deps already hold this database. A request routed later (a
  // link naming its workspace) collects from the shard's handle once it is opened.
  if (c.var.db) collectingEffects(c.var.db, sink);
  const routeTo = c.var.routeTo;
  c.set("routeTo", (workspaceId, shard) => collectingEffects(routeTo(workspaceId, shard), sink));
  await next();
  const method = c.req.method;
  if (method === "GET" || method === "HEAD" || c.res.status >= 400) return;
  const effects = sink.take();
  if (effects.length === 0) return;
  const dispatch = c.var.gate.pass().then(
    () => dispatchEffects(c.env, effects),
    () => undefined,
  );
  const work = dispatch.catch((error: unknown) =>
    log("error", "after-write dispatch failed", { error }),
  );
  try {
    c.executionCtx.waitUntil(work);
  } catch {
    // `app.request` in tests has no execution context: the work runs on regardless.
  }
});
