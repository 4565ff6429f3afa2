import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import { setWebhookStatus } from "../../queries/webhooks";
import type { PublicEnv } from "../../../http/env";
import { notFound } from "../../../platform/errors";
import {
  authErrors,
  conflictErrors,
  json,
  notFoundError,
  queryErrors,
} from "../../../http/responses";
import { renderWebhook, WebhookPath, WebhookSchema } from "./schema";

const statusRoute = (action: "enable" | "disable") =>
  defineRoute({
    operationId: `${action}Webhook`,
    keys: "secret",
    method: "post",
    path: `/webhooks/{webhook_id}/${action}`,
    tags: ["Webhooks"],
    summary:
      action === "enable"
        ? "Enable a webhook (also resets its failure count)"
        : "Disable a webhook",
    request: { params: WebhookPath },
    responses: {
      200: json(WebhookSchema, "The webhook"),
      ...authErrors,
      ...queryErrors,
      ...notFoundError("webhook"),
      ...conflictErrors(),
    },
  });

export const enableRoute = statusRoute("enable");
export const disableRoute = statusRoute("disable");

const setStatus =
  (status: "enabled" | "disabled"): RouteHandler<typeof enableRoute, PublicEnv> =>
  async (c) => {
    const { webhook_id: id } = c.req.valid("param");
    const row = await setWebhookStatus(c.var.deps.scope, id, status);
    if (!row) throw notFound("Webhook");
    return c.json(renderWebhook(row), 200);
  };

export const enable = setStatus("enabled");
export const disable = setStatus("disabled");
