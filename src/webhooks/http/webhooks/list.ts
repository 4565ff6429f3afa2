import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import { listPage } from "../../../db/queries/list";
import { webhooks } from "../../../db/schema";
import { whereIn } from "../../../db/scope";
import type { PublicEnv } from "../../../http/env";
import { PaginationQuery, pageRequest, paginate, paginated } from "../../../platform/pagination";
import { authErrors, json, queryErrors } from "../../../http/responses";
import { renderWebhook, WebhookSchema } from "./schema";

export const route = defineRoute({
  operationId: "listWebhooks",
  keys: "secret",
  method: "get",
  path: "/webhooks",
  tags: ["Webhooks"],
  summary: "List the workspace's webhooks",
  request: { query: PaginationQuery },
  responses: {
    200: json(paginated(WebhookSchema, "WebhookList"), "A page of webhooks"),
    ...authErrors,
    ...queryErrors,
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const page = pageRequest(c.req.valid("query"));
  const scope = c.var.deps.scope;
  const { rows, total } = await listPage(
    scope.db,
    webhooks,
    whereIn(scope, webhooks),
    [webhooks.id],
    page,
  );
  return c.json(paginate(c.req.url, rows.map(renderWebhook), total, page), 200);
};
