import { and, count, desc, eq, sql } from "drizzle-orm";
import type { PageRequest } from "../../lib/pagination";
import { webhookDeliveries, webhooks } from "../schema";
import { type Scope, whereIn } from "../scope";

export type WebhookRow = typeof webhooks.$inferSelect;

export const webhookWhere = (scope: Scope, id: number) =>
  whereIn(scope, webhooks, eq(webhooks.id, id));

/**
 * `updated_at` for any write to a webhook: now, but always past the value it
 * replaces, since a PATCH uses it as its compare-and-set token (two isolates'
 * clocks may differ, and a step back could match what a PATCH read).
 */
export const touched = (now = Date.now()) => sql<number>`max(${now}, ${webhooks.updatedAt} + 1)`;

/** Enables or disables a webhook (and forgets its failures); null when it is not the workspace's. */
export async function setWebhookStatus(scope: Scope, id: number, status: "enabled" | "disabled") {
  const [row] = await scope.db
    .update(webhooks)
    .set({ status, consecutiveFailures: 0, updatedAt: touched() })
    .where(webhookWhere(scope, id))
    .returning();
  return row ?? null;
}

/**
 * Applies `changes` only if the webhook is still as `read` left it (its
 * `updated_at`, which every write moves forward): null when another write
 * came first, or the webhook is gone.
 */
export async function updateWebhookIfUnchanged(
  scope: Scope,
  read: WebhookRow,
  changes: Partial<Omit<typeof webhooks.$inferInsert, "id" | "workspaceId" | "updatedAt">>,
): Promise<WebhookRow | null> {
  const [row] = await scope.db
    .update(webhooks)
    .set({ ...changes, updatedAt: touched() })
    .where(and(webhookWhere(scope, read.id), eq(webhooks.updatedAt, read.updatedAt)))
    .returning();
  return row ?? null;
}

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

/** Deletes a webhook and its delivery log in one batch; false when there was no such webhook. */
export async function deleteWebhook(scope: Scope, id: number): Promise<boolean> {
  const { db } = scope;
  const [removed] = await db.batch([
    db.delete(webhooks).where(webhookWhere(scope, id)).returning({ id: webhooks.id }),
    db
      .delete(webhookDeliveries)
      .where(whereIn(scope, webhookDeliveries, eq(webhookDeliveries.webhookId, id))),
  ]);
  return removed.length > 0;
}

/**
 * Gives a webhook a new signing secret and keeps the old one until
 * `previousExpiresAt`; null when there is no such webhook.
 */
export async function rotateWebhookSecret(
  scope: Scope,
  id: number,
  rotation: { secret: string; previousExpiresAt: number; now: number },
): Promise<WebhookRow | null> {
  // SQLite evaluates SET against the row as it was, so the old secret moves over in one statement.
  const [row] = await scope.db
    .update(webhooks)
    .set({
      secret: rotation.secret,
      previousSecret: sql`${webhooks.secret}`,
      previousSecretExpiresAt: rotation.previousExpiresAt,
      updatedAt: touched(rotation.now),
    })
    .where(webhookWhere(scope, id))
    .returning();
  return row ?? null;
}
