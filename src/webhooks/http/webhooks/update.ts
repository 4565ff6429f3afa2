import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import { findWebhook, updateWebhookIfUnchanged } from "../../queries/webhooks";
import type { PublicEnv } from "../../../http/env";
import { ApiError, fieldError, notFound } from "../../../platform/errors";
import {
  authErrors,
  bodyErrors,
  conflictErrors,
  json,
  jsonBody,
  notFoundError,
} from "../../../http/responses";
import { renderWebhook, UpdateWebhookBody, WebhookPath, WebhookSchema } from "./schema";
import { assertDeliveryUrlLength, assertWebhookUrl } from "./url-check";

export const route = defineRoute({
  operationId: "updateWebhook",
  keys: "secret",
  method: "patch",
  path: "/webhooks/{webhook_id}",
  tags: ["Webhooks"],
  summary: "Change some fields of a webhook",
  request: { params: WebhookPath, ...jsonBody(UpdateWebhookBody) },
  responses: {
    200: json(WebhookSchema, "The webhook as it now is"),
    ...authErrors,
    ...bodyErrors,
    ...notFoundError("webhook"),
    ...conflictErrors(),
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const { webhook_id: id } = c.req.valid("param");
  const body = c.req.valid("json");
  const scope = c.var.deps.scope;
  if (body.url !== undefined) assertWebhookUrl(c.env, body.url);
  const current = await findWebhook(scope, id);
  if (!current) throw notFound("Webhook");
  if (body.url !== undefined || body.parameters !== undefined)
    assertDeliveryUrlLength(body.url ?? current.url, body.parameters ?? current.parameters);
  const sendNotification = body.send_notification ?? current.sendNotification;
  if (sendNotification && !(body.emails ?? current.emails))
    throw fieldError("emails", "Required when send_notification is true.");
  // Only over the state the checks above read: two PATCHes at once cannot combine into a
  // webhook neither would have passed (notifications without e-mails, an over-long URL).
  const row = await updateWebhookIfUnchanged(scope, current, {
    url: body.url,
    events: body.events,
    method: body.method,
    description: body.description,
    successStatuses: body.success_statuses,
    sendNotification: body.send_notification,
    emails: body.emails,
    parameters: body.parameters,
    headers: body.headers,
    tries: body.tries,
    timeout: body.timeout,
  });
  if (!row) {
    throw new ApiError(
      "conflict",
      "The webhook was changed by another request at the same moment; reload it and try again.",
    );
  }
  return c.json(renderWebhook(row), 200);
};
