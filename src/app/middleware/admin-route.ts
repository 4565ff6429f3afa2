import { createMiddleware } from "hono/factory";
import { placementOf } from "../../db/shards";
import type { AdminEnv } from "../../http/env";
import { notFound } from "../../platform/errors";
import { UUID } from "../../platform/rules/uuid";

/**
 * The management API names its workspace in the path: the request is routed
 * to the workspace's shard before the handler runs (from this isolate's
 * memory of the directory, else one directory read). A workspace the directory
 * does not know is a 404; a malformed id is left to the route's validation.
 */
export const routeAdminWorkspace = createMiddleware<AdminEnv>(async (c, next) => {
  const ws = c.req.param("ws");
  if (ws && UUID.test(ws)) {
    const id = ws.toLowerCase();
    const shard = await placementOf(c.env, id, c.var.directory);
    if (!shard) throw notFound("Workspace");
    c.var.routeTo(id, shard);
  }
  await next();
});
