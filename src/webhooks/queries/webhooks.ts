import { and, count, desc, eq, max, sql } from "drizzle-orm";
import type { PageRequest } from "../../platform/pagination";
import { insertRows } from "../../db/bounded";
import type { Database } from "../../db/client";
import { events, webhookAttempts, webhookDeliveries, webhooks } from "../../db/schema";
import { type Scope, whereIn } from "../../db/scope";
import type { Statement } from "../../db/statement";
import type { EventRow } from "./outbox";

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
    // Attempt counts carry no workspace: only the webhook just deleted (if it was this one's) goes.
    db
      .delete(webhookAttempts)
      .where(
        and(
          eq(webhookAttempts.webhookId, id),
          sql`not exists (select 1 from ${webhooks} where ${webhooks.id} = ${id})`,
        ),
      ),
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

/*
 * Delivery runs in the queue consumer, outside any request: a message names
 * an event and a webhook by id, so these take the database, not a Scope, and
 * the consumer checks the webhook's workspace is the event's.
 */

export type DeliveryRow = typeof webhookDeliveries.$inferInsert;

/**
 * Attempts taken so far for one event at one webhook, when the next may start (ms), and the
 * highest attempt whose result is in the delivery log: an attempt taken but never logged was
 * lost with the invocation that took it.
 */
export interface AttemptState {
  attempts: number;
  nextAttemptAt: number;
  recorded: number;
}

/**
 * What one delivery message needs, in one round trip: the webhook, the
 * event, whether an HTTP try of this event to this webhook already
 * succeeded (a duplicate message), and the attempts made so far. Pairs from
 * before attempts were counted apart start from their delivery log.
 */
export async function readDelivery(
  db: Database,
  ids: { eventId: string; webhookId: number },
): Promise<{
  hook: WebhookRow | null;
  event: EventRow | null;
  delivered: boolean;
  state: AttemptState;
}> {
  const pair = (table: typeof webhookDeliveries | typeof webhookAttempts) =>
    and(eq(table.eventId, ids.eventId), eq(table.webhookId, ids.webhookId));
  const [hooks, found, done, counted, logged] = await db.batch([
    db.select().from(webhooks).where(eq(webhooks.id, ids.webhookId)),
    db.select().from(events).where(eq(events.id, ids.eventId)),
    db
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(
        and(
          pair(webhookDeliveries),
          eq(webhookDeliveries.kind, "http"),
          eq(webhookDeliveries.success, true),
        ),
      )
      .limit(1),
    db
      .select({
        attempts: webhookAttempts.attempts,
        nextAttemptAt: webhookAttempts.nextAttemptAt,
      })
      .from(webhookAttempts)
      .where(pair(webhookAttempts)),
    db
      .select({ attempts: max(webhookDeliveries.attempt) })
      .from(webhookDeliveries)
      .where(and(pair(webhookDeliveries), eq(webhookDeliveries.kind, "http"))),
  ]);
  return {
    hook: hooks[0] ?? null,
    event: found[0] ?? null,
    delivered: done.length > 0,
    state: {
      ...(counted[0] ?? { attempts: logged[0]?.attempts ?? 0, nextAttemptAt: 0 }),
      recorded: logged[0]?.attempts ?? 0,
    },
  };
}

/** How long a pair's attempt count is kept after its last change: past any queue message's retention. */
const ATTEMPTS_KEPT_MS = 15 * 24 * 3_600_000;

/**
 * Takes attempt `seen + 1` of an event at a webhook: true only for the one
 * caller that still saw `seen` attempts (compare-and-set), so two copies of
 * a queue message never make the same attempt. The next attempt may not
 * start before `busyUntil`, which covers this one while it runs.
 */
export async function takeAttempt(
  db: Database,
  taking: { eventId: string; webhookId: number; seen: number; busyUntil: number; now: number },
): Promise<boolean> {
  const next = {
    attempts: taking.seen + 1,
    nextAttemptAt: taking.busyUntil,
    expiresAt: taking.now + ATTEMPTS_KEPT_MS,
  };
  const rows = await db
    .insert(webhookAttempts)
    .values({ eventId: taking.eventId, webhookId: taking.webhookId, ...next })
    .onConflictDoUpdate({
      target: [webhookAttempts.eventId, webhookAttempts.webhookId],
      set: next,
      setWhere: eq(webhookAttempts.attempts, taking.seen),
    })
    .returning({ attempts: webhookAttempts.attempts });
  return rows.length > 0;
}

/**
 * When the attempt after `attempt` may start (the backoff chosen for it); nothing once a later
 * attempt was taken (this one ran past its busy window), whose own schedule stands.
 */
export const scheduleNextAttempt = (
  db: Database,
  ids: { eventId: string; webhookId: number; attempt: number },
  nextAttemptAt: number,
): Statement =>
  db
    .update(webhookAttempts)
    .set({ nextAttemptAt })
    .where(
      and(
        eq(webhookAttempts.eventId, ids.eventId),
        eq(webhookAttempts.webhookId, ids.webhookId),
        eq(webhookAttempts.attempts, ids.attempt),
      ),
    );

/**
 * What fanning an event out needs, in one round trip: the event, the
 * enabled webhooks of its workspace subscribed to its type, and the webhooks
 * already e-mailed about it (a duplicate message).
 */
export async function readFanOut(db: Database, eventId: string) {
  const ofEvent = (column: typeof events.workspaceId | typeof events.type) =>
    sql`(select ${column} from ${events} where ${events.id} = ${eventId})`;
  const [found, subscribed, mailed] = await db.batch([
    db.select().from(events).where(eq(events.id, eventId)),
    db
      .select()
      .from(webhooks)
      .where(
        and(
          sql`${webhooks.workspaceId} = ${ofEvent(events.workspaceId)}`,
          eq(webhooks.status, "enabled"),
          sql`exists (select 1 from json_each(${webhooks.events}) where value = ${ofEvent(events.type)})`,
        ),
      ),
    db
      .select({ webhookId: webhookDeliveries.webhookId })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.eventId, eventId), eq(webhookDeliveries.kind, "email"))),
  ]);
  return {
    event: found[0] ?? null,
    subscribed,
    mailedWebhookIds: new Set(mailed.map((m) => m.webhookId)),
  };
}

/** Logs one delivery try. */
export const insertDelivery = (db: Database, row: DeliveryRow): Statement =>
  db.insert(webhookDeliveries).values(row);

/** Logs delivery tries (one row each), in as few statements as D1's parameter limit allows. */
export const insertDeliveries = (db: Database, rows: DeliveryRow[]): Statement[] =>
  insertRows(db, webhookDeliveries, rows);

/**
 * What one attempt does to its webhook: `recovered` clears its failure
 * count, `gone` (a 410) switches it off, and `failed-event` (every try of an
 * event failed) counts towards switching it off at `disableAfter`.
 */
export type AttemptEffect = "recovered" | "gone" | "failed-event";

export function webhookAfterAttempt(
  db: Database,
  webhookId: number,
  effect: AttemptEffect,
  context: { now: number; disableAfter: number },
): Statement {
  const change =
    effect === "recovered"
      ? { consecutiveFailures: 0 }
      : effect === "gone"
        ? { status: "disabled" as const, updatedAt: touched(context.now) }
        : {
            consecutiveFailures: sql`${webhooks.consecutiveFailures} + 1`,
            status: sql<
              "enabled" | "disabled"
            >`case when ${webhooks.consecutiveFailures} + 1 >= ${context.disableAfter} then 'disabled' else ${webhooks.status} end`,
            updatedAt: touched(context.now),
          };
  return db.update(webhooks).set(change).where(eq(webhooks.id, webhookId));
}

export const insertWebhook = (db: Database, row: typeof webhooks.$inferInsert) =>
  db.insert(webhooks).values(row).returning();
