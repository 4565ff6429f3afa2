import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import { webhookWhere } from "../../../db/queries/webhooks";
import { webhookDeliveries, webhooks } from "../../../db/schema";
import type { AppEnv } from "../../../env";
import { notFound } from "../../../lib/errors";
import { errorResponses } from "../../../lib/responses";
import { WebhookPath } from "./schema";

export const route = createRoute({
  method: "delete",
  path: "/webhooks/{webhook_id}",
  tags: ["Webhooks"],
  summary: "Delete a webhook and its delivery log",
  request: { params: WebhookPath },
  responses: { 204: { description: "Deleted; empty body" }, ...errorResponses },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { webhook_id: id } = c.req.valid("param");
  const scope = c.var.scope;
  const [removed] = await c.var.db.batch([
    c.var.db.delete(webhooks).where(webhookWhere(scope, id)).returning({ id: webhooks.id }),
    c.var.db
      .delete(webhookDeliveries)
      .where(
        and(
          eq(webhookDeliveries.workspaceId, scope.workspaceId),
          eq(webhookDeliveries.webhookId, id),
        ),
      ),
  ]);
  if (removed.length === 0) throw notFound("Webhook");
  return c.body(null, 204);
};
