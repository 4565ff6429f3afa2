import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import { rotateWebhookSecret } from "../../queries/webhooks";
import { newWebhookSecret } from "../../rules/signing";
import type { PublicEnv } from "../../../http/env";
import { notFound } from "../../../platform/errors";
import {
  authErrors,
  conflictErrors,
  json,
  notFoundError,
  queryErrors,
} from "../../../http/responses";
import { renderWebhook, WebhookPath, WebhookWithSecretSchema } from "./schema";

/** How long deliveries carry the old secret's signature too, so receivers can switch over. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

export const route = defineRoute({
  operationId: "rotateWebhookSecret",
  keys: "secret",
  method: "post",
  path: "/webhooks/{webhook_id}/rotate-secret",
  tags: ["Webhooks"],
  summary: "Issue a new signing secret; for 24 h deliveries are signed with both",
  request: { params: WebhookPath },
  responses: {
    200: json(WebhookWithSecretSchema, "The webhook and its new secret"),
    ...authErrors,
    ...queryErrors,
    ...notFoundError("webhook"),
    ...conflictErrors(),
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const { webhook_id: id } = c.req.valid("param");
  const now = Date.now();
  const row = await rotateWebhookSecret(c.var.deps.scope, id, {
    secret: newWebhookSecret(),
    previousExpiresAt: now + ROTATION_OVERLAP_MS,
    now,
  });
  if (!row) throw notFound("Webhook");
  return c.json({ ...renderWebhook(row), secret: row.secret }, 200);
};
