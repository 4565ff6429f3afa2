import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import { findWebhook } from "../../queries/webhooks";
import type { PublicEnv } from "../../../http/env";
import { notFound } from "../../../platform/errors";
import { authErrors, json, notFoundError, queryErrors } from "../../../http/responses";
import { renderWebhook, WebhookPath, WebhookSchema } from "./schema";

export const route = defineRoute({
  operationId: "getWebhook",
  keys: "secret",
  method: "get",
  path: "/webhooks/{webhook_id}",
  tags: ["Webhooks"],
  summary: "Get a webhook",
  request: { params: WebhookPath },
  responses: {
    200: json(WebhookSchema, "The webhook"),
    ...authErrors,
    ...queryErrors,
    ...notFoundError("webhook"),
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const { webhook_id: id } = c.req.valid("param");
  const row = await findWebhook(c.var.deps.scope, id);
  if (!row) throw notFound("Webhook");
  return c.json(renderWebhook(row), 200);
};
