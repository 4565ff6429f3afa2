import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import { deleteWebhook } from "../../queries/webhooks";
import type { PublicEnv } from "../../../http/env";
import { notFound } from "../../../platform/errors";
import { authErrors, notFoundError, queryErrors } from "../../../http/responses";
import { WebhookPath } from "./schema";

export const route = defineRoute({
  operationId: "deleteWebhook",
  keys: "secret",
  method: "delete",
  path: "/webhooks/{webhook_id}",
  tags: ["Webhooks"],
  summary: "Delete a webhook and its delivery log",
  request: { params: WebhookPath },
  responses: {
    204: { description: "Deleted; empty body" },
    ...authErrors,
    ...queryErrors,
    ...notFoundError("webhook"),
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const { webhook_id: id } = c.req.valid("param");
  if (!(await deleteWebhook(c.var.deps.scope, id))) throw notFound("Webhook");
  return c.body(null, 204);
};
