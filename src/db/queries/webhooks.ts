import { and, count, desc, eq } from "drizzle-orm";
import type { PageRequest } from "../../lib/pagination";
import { webhookDeliveries, webhooks } from "../schema";
import { type Scope, whereIn } from "../scope";

export type WebhookRow = typeof webhooks.$inferSelect;

export const webhookWhere = (scope: Scope, id: number) =>
  whereIn(scope, webhooks, eq(webhooks.id, id));

export async function findWebhook(scope: Scope, id: number): Promise<WebhookRow | null> {
  const [row] = await scope.db.select().from(webhooks).where(webhookWhere(scope, id));
  return row ?? null;
}

/** A webhook's delivery log, newest first, with the webhook itself to tell 404 apart: one round trip. */
export async function listDeliveries(scope: Scope, webhookId: number, page: PageRequest) {
  const { db } = scope;
  const where = and(
    eq(webhookDeliveries.workspaceId, scope.workspaceId),
    eq(webhookDeliveries.webhookId, webhookId),
  );
  const [hook, totals, rows] = await db.batch([
    db.select({ id: webhooks.id }).from(webhooks).where(webhookWhere(scope, webhookId)),
    db.select({ total: count() }).from(webhookDeliveries).where(where),
    db
      .select()
      .from(webhookDeliveries)
      .where(where)
      .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.attempt))
      .limit(page.perPage)
      .offset(page.offset),
  ]);
  return { exists: hook.length > 0, total: totals[0]?.total ?? 0, rows };
}
