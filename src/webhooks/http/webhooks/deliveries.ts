import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import { listDeliveries } from "../../queries/webhooks";
import type { PublicEnv } from "../../../http/env";
import { notFound } from "../../../platform/errors";
import { PaginationQuery, pageRequest, paginate, paginated } from "../../../platform/pagination";
import { authErrors, json, notFoundError, queryErrors } from "../../../http/responses";
import { DeliverySchema, renderDelivery, WebhookPath } from "./schema";

export const route = defineRoute({
  operationId: "listWebhookDeliveries",
  keys: "secret",
  method: "get",
  path: "/webhooks/{webhook_id}/deliveries",
  tags: ["Webhooks"],
  summary: "The webhook's delivery log, one entry per attempt, newest first",
  request: { params: WebhookPath, query: PaginationQuery },
  responses: {
    200: json(paginated(DeliverySchema, "WebhookDeliveryList"), "A page of attempts"),
    ...authErrors,
    ...queryErrors,
    ...notFoundError("webhook"),
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const { webhook_id: id } = c.req.valid("param");
  const page = pageRequest(c.req.valid("query"));
  const { exists, rows, total } = await listDeliveries(c.var.deps.scope, id, page);
  if (!exists) throw notFound("Webhook");
  return c.json(paginate(c.req.url, rows.map(renderDelivery), total, page), 200);
};
