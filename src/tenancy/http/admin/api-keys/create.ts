import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../../http/operations";
import { insertApiKey } from "../../../queries/api-keys";
import { requireWorkspace } from "../../../queries/workspaces";
import type { AdminEnv } from "../../../../http/env";
import { authErrors, bodyErrors, json, workspaceNotFound } from "../../../../http/responses";
import { WorkspaceParams } from "../workspaces/schema";
import { ApiKeySchema, type CreateApiKey, CreateApiKeySchema, storedOrigins } from "./schema";

export const route = defineRoute({
  operationId: "createWorkspaceApiKey",
  keys: "admin",
  method: "post",
  path: "/workspaces/{ws}/api-keys",
  tags: ["API keys"],
  summary: "Issue another API key for a workspace (shown once)",
  description:
    'Without a body, a secret key. `{ "kind": "publishable", "allowed_origins": [...] }` issues a key for web pages and the booking widget.',
  request: {
    params: WorkspaceParams,
    body: {
      content: { "application/json": { schema: CreateApiKeySchema } },
      required: false,
    },
  },
  responses: {
    201: json(ApiKeySchema, "Created"),
    ...authErrors,
    ...bodyErrors,
    ...workspaceNotFound(),
  },
});

export const handler: RouteHandler<typeof route, AdminEnv> = async (c) => {
  const { ws } = c.req.valid("param");
  // Without a body the validator does not run at all: nothing was sent, so a secret key.
  const body: CreateApiKey = c.req.valid("json") ?? { kind: "secret" };
  // Keys live in the directory, beside the workspace's row there.
  const workspace = await requireWorkspace(c.var.directory, ws);
  const key = await insertApiKey(c.var.directory, workspace.id, Date.now(), {
    // The validator may not run (no JSON body sent), so its default may not have applied.
    kind: body.kind ?? "secret",
    allowedOrigins: storedOrigins(body),
  });
  await key.statement;
  return c.json(
    { id: key.id, kind: key.kind, api_key: key.apiKey, allowed_origins: key.allowedOrigins },
    201,
  );
};
