import { nextDirectoryId } from "../../../db/queries/directory-ids";
import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import { insertWebhook } from "../../queries/webhooks";
import { newWebhookSecret } from "../../rules/signing";
import type { PublicEnv } from "../../../http/env";
import { authErrors, bodyErrors, conflictErrors, json, jsonBody } from "../../../http/responses";
import { CreateWebhookBody, renderWebhook, WebhookWithSecretSchema } from "./schema";
import { assertDeliveryUrlLength, assertWebhookUrl } from "./url-check";

export const route = defineRoute({
  operationId: "createWebhook",
  keys: "secret",
  method: "post",
  path: "/webhooks",
  tags: ["Webhooks"],
  summary: "Subscribe a URL to event kinds",
  description:
    "Deliveries are signed per Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature) with the returned `secret`, which is shown only here. Private, loopback and link-local URLs are refused.",
  request: jsonBody(CreateWebhookBody),
  responses: {
    201: json(WebhookWithSecretSchema, "Created"),
    ...authErrors,
    ...bodyErrors,
    ...conflictErrors(),
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const body = c.req.valid("json");
  assertWebhookUrl(c.env, body.url);
  assertDeliveryUrlLength(body.url, body.parameters ?? []);
  const now = Date.now();
  // The id from the directory: the workspace keeps its webhooks' ids on any shard it moves to.
  const id = await nextDirectoryId(c.var.directory, "webhooks");
  const [row] = await insertWebhook(c.var.db, {
    id,
    workspaceId: c.var.workspace.id,
    url: body.url,
    method: body.method ?? "post",
    description: body.description ?? "",
    successStatuses: body.success_statuses ?? "200,201,202,204",
    status: "enabled",
    sendNotification: body.send_notification ?? false,
    emails: body.emails ?? "",
    events: body.events,
    parameters: body.parameters ?? [],
    headers: body.headers ?? [],
    tries: body.tries ?? 5,
    timeout: body.timeout ?? 10,
    secret: newWebhookSecret(),
    createdAt: now,
    updatedAt: now,
  });
  if (!row) throw new Error("insert returned no row");
  return c.json({ ...renderWebhook(row), secret: row.secret }, 201);
};
