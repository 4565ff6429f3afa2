import { type RouteHandler, z } from "@hono/zod-openapi";
import { defineRoute } from "../../../../http/operations";
import { revokeApiKey } from "../../../queries/api-key-revoke";
import type { AdminEnv } from "../../../../http/env";
import { notFound } from "../../../../platform/errors";
import { authErrors, queryErrors, workspaceNotFound } from "../../../../http/responses";

const Params = z.object({
  ws: z.uuid({ message: "The workspace id must be a valid UUID." }),
  // Any text: a key id that cannot exist is simply not found, like any other unknown id.
  key_id: z.string().max(64).openapi({ description: "The `id` returned when the key was issued" }),
});

export const route = defineRoute({
  operationId: "deleteWorkspaceApiKey",
  keys: "admin",
  method: "delete",
  path: "/workspaces/{ws}/api-keys/{key_id}",
  tags: ["API keys"],
  summary: "Revoke an API key; it is refused from the next request on",
  request: { params: Params },
  responses: {
    204: { description: "Revoked" },
    ...authErrors,
    ...queryErrors,
    ...workspaceNotFound("API key"),
  },
});

export const handler: RouteHandler<typeof route, AdminEnv> = async (c) => {
  const { ws, key_id: keyId } = c.req.valid("param");
  if (
    !(await revokeApiKey({ db: c.var.directory, workspaceId: ws.toLowerCase() }, keyId, Date.now()))
  )
    throw notFound("API key");
  return c.body(null, 204);
};
