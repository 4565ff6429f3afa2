import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { insertApiKey } from "../../../db/queries/api-keys";
import { requireWorkspace } from "../../../db/queries/workspaces";
import type { AdminEnv } from "../../../env";
import { authErrors, json, queryErrors, workspaceNotFound } from "../../../lib/responses";
import { ApiKeySchema, WorkspaceParams } from "../workspaces/schema";

export const route = createRoute({
  method: "post",
  path: "/workspaces/{ws}/api-keys",
  tags: ["API keys"],
  summary: "Issue another API key for a workspace (shown once)",
  request: { params: WorkspaceParams },
  responses: {
    201: json(ApiKeySchema, "Created"),
    ...authErrors,
    ...queryErrors,
    ...workspaceNotFound(),
  },
});

export const handler: RouteHandler<typeof route, AdminEnv> = async (c) => {
  const { ws } = c.req.valid("param");
  const workspace = await requireWorkspace(c.var.db, ws);
  const key = await insertApiKey(c.var.db, workspace.id, Date.now());
  await key.statement;
  return c.json({ id: key.id, api_key: key.apiKey }, 201);
};
