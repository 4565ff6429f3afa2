import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb, runBatch } from "../../../src/db/client";
import { events, webhookAttempts, webhookDeliveries, type webhooks } from "../../../src/db/schema";
import type { Scope } from "../../../src/db/scope";
import {
  type DeliveryRow,
  deleteWebhook,
  findWebhook,
  insertDeliveries,
  insertWebhook,
  listDeliveries,
  readDelivery,
  readFanOut,
  scheduleNextAttempt,
  takeAttempt,
  webhookAfterAttempt,
} from "../../../src/webhooks/queries/webhooks";
import { createWorkspace } from "../../helpers/factory";
import { shardOf } from "../../helpers/every-shard";
import { workspacesTogether } from "../../helpers/same-shard";

/**
 * The webhook queries the queue consumer and the routes build on, called directly against D1:
 * attempts taken once each, what a delivery and a fan-out read, what an attempt does to its
 * webhook, the delivery log's order; another workspace's rows never come back.
 */

const T0 = Date.UTC(2030, 0, 7, 9);

// The code runs on the workspace's own shard, as the app's handle does: its
// compare-and-set updates and batches mean what they say on one database.
const scopeOf = async (ws: { id: string }): Promise<Scope> => ({
  db: createDb((await shardOf(ws.id)).db),
  workspaceId: ws.id,
});

const tenant = async (): Promise<Scope> => scopeOf(await createWorkspace());

/** Two workspaces on one shard: another workspace's rows are on the database read. */
async function neighbours(): Promise<[Scope, Scope]> {
  const [a, b] = await workspacesTogether(2);
  if (!a || !b) throw new Error("no workspaces");
  return [await scopeOf(a), await scopeOf(b)];
}

async function webhook(scope: Scope, over: Partial<typeof webhooks.$inferInsert> = {}) {
  const [row] = await insertWebhook(scope.db, {
    workspaceId: scope.workspaceId,
    url: "https://example.com/hook",
    events: ["booking-created"],
    secret: "s",
    createdAt: T0,
    updatedAt: T0,
    ...over,
  });
  if (!row) throw new Error("no webhook");
  return row;
}

async function event(scope: Scope, type = "booking-created") {
  const id = crypto.randomUUID();
  await scope.db
    .insert(events)
    .values({ id, workspaceId: scope.workspaceId, type, payload: {}, createdAt: T0 });
  return id;
}

const logRow = (
  scope: Scope,
  webhookId: number,
  eventId: string,
  over: Partial<DeliveryRow> = {},
): DeliveryRow => ({
  id: crypto.randomUUID(),
  workspaceId: scope.workspaceId,
  webhookId,
  eventId,
  eventType: "booking-created",
  kind: "http",
  attempt: 1,
  statusCode: 500,
  success: false,
  error: null,
  durationMs: 1,
  createdAt: T0,
  ...over,
});

describe("takeAttempt: each attempt is made once", () => {
  it("gives attempt seen + 1 to the one caller that still saw `seen` attempts", async () => {
    const scope = await tenant();
    const { db } = scope;
    const hook = await webhook(scope);
    const eventId = await event(scope);
    const take = (seen: number) =>
      takeAttempt(db, { eventId, webhookId: hook.id, seen, busyUntil: T0 + seen, now: T0 });
    expect(await take(0)).toBe(true);
    expect(await take(0)).toBe(false);
    expect(await take(2)).toBe(false);
    expect(await take(1)).toBe(true);
    const { state } = await readDelivery(db, { eventId, webhookId: hook.id });
    expect(state).toEqual({ attempts: 2, nextAttemptAt: T0 + 1, recorded: 0 });
  });

  it("scheduleNextAttempt moves the next start only while no later attempt was taken", async () => {
    const scope = await tenant();
    const { db } = scope;
    const hook = await webhook(scope);
    const eventId = await event(scope);
    const ids = { eventId, webhookId: hook.id };
    await takeAttempt(db, { ...ids, seen: 0, busyUntil: T0, now: T0 });
    await takeAttempt(db, { ...ids, seen: 1, busyUntil: T0 + 5, now: T0 });
    await scheduleNextAttempt(db, { ...ids, attempt: 1 }, T0 + 99);
    expect((await readDelivery(db, ids)).state.nextAttemptAt).toBe(T0 + 5);
    await scheduleNextAttempt(db, { ...ids, attempt: 2 }, T0 + 99);
    expect((await readDelivery(db, ids)).state.nextAttemptAt).toBe(T0 + 99);
  });
});

describe("readDelivery", () => {
  it("is delivered only after a successful HTTP try; counts from the log for pairs older than attempt counts", async () => {
    const scope = await tenant();
    const { db } = scope;
    const hook = await webhook(scope);
    const eventId = await event(scope);
    const ids = { eventId, webhookId: hook.id };
    await runBatch(
      db,
      insertDeliveries(db, [
        logRow(scope, hook.id, eventId, { attempt: 1 }),
        logRow(scope, hook.id, eventId, { attempt: 2 }),
        // An e-mail notice is not a try, successful or not.
        logRow(scope, hook.id, eventId, { kind: "email", attempt: 7, success: true }),
      ]),
    );
    const before = await readDelivery(db, ids);
    expect(before.delivered).toBe(false);
    expect(before.state).toEqual({ attempts: 2, nextAttemptAt: 0, recorded: 2 });
    expect(before.hook?.id).toBe(hook.id);
    expect(before.event?.id).toBe(eventId);

    await runBatch(
      db,
      insertDeliveries(db, [
        logRow(scope, hook.id, eventId, { attempt: 3, success: true, statusCode: 200 }),
      ]),
    );
    expect((await readDelivery(db, ids)).delivered).toBe(true);
    expect(await readDelivery(db, { eventId: "none", webhookId: -1 })).toMatchObject({
      hook: null,
      event: null,
      delivered: false,
    });
  });
});

describe("readFanOut", () => {
  it("finds the enabled webhooks of the event's own workspace subscribed to its type, and those already mailed", async () => {
    const [a, b] = await neighbours();
    const { db } = a;
    const subscribed = await webhook(a, { events: ["booking-created", "booking-canceled"] });
    const mailed = await webhook(a, { sendNotification: true, emails: "x@example.com" });
    await webhook(a, { events: ["booking-canceled"] });
    await webhook(a, { status: "disabled" });
    await webhook(b);
    const eventId = await event(a);
    await runBatch(
      db,
      insertDeliveries(db, [
        logRow(a, mailed.id, eventId, { kind: "email" }),
        logRow(a, subscribed.id, eventId, { kind: "http" }),
      ]),
    );
    const fanOut = await readFanOut(db, eventId);
    expect(fanOut.event?.id).toBe(eventId);
    expect(fanOut.subscribed.map((w) => w.id).sort((x, y) => x - y)).toEqual([
      subscribed.id,
      mailed.id,
    ]);
    expect([...fanOut.mailedWebhookIds]).toEqual([mailed.id]);
    expect(await readFanOut(db, "no-such-event")).toMatchObject({ event: null, subscribed: [] });
  });
});

describe("webhookAfterAttempt", () => {
  it("counts failed events and switches the webhook off at the limit; a recovery clears the count; a 410 switches it off", async () => {
    const scope = await tenant();
    const { db } = scope;
    const hook = await webhook(scope);
    const after = async (effect: "recovered" | "gone" | "failed-event", now: number) => {
      await webhookAfterAttempt(db, hook.id, effect, { now, disableAfter: 3 });
      return findWebhook(scope, hook.id);
    };
    expect(await after("failed-event", T0 + 1)).toMatchObject({
      consecutiveFailures: 1,
      status: "enabled",
    });
    expect(await after("failed-event", T0 + 2)).toMatchObject({ consecutiveFailures: 2 });
    expect(await after("recovered", T0 + 3)).toMatchObject({ consecutiveFailures: 0 });
    await after("failed-event", T0 + 4);
    await after("failed-event", T0 + 5);
    expect(await after("failed-event", T0 + 6)).toMatchObject({
      consecutiveFailures: 3,
      status: "disabled",
      updatedAt: T0 + 6,
    });

    const other = await webhook(scope);
    await webhookAfterAttempt(db, other.id, "gone", { now: T0 - 10, disableAfter: 3 });
    // `updated_at` never goes back: a PATCH compares it.
    expect(await findWebhook(scope, other.id)).toMatchObject({
      status: "disabled",
      updatedAt: T0 + 1,
    });
  });
});

describe("listDeliveries and deleteWebhook", () => {
  it("lists a webhook's log newest first (higher attempt first at the same time), only in its own workspace", async () => {
    const [a, b] = await neighbours();
    const { db } = a;
    const hook = await webhook(a);
    const eventId = await event(a);
    const rows = [
      logRow(a, hook.id, eventId, { attempt: 1, createdAt: T0 }),
      logRow(a, hook.id, eventId, { attempt: 2, createdAt: T0 + 10 }),
      logRow(a, hook.id, eventId, { attempt: 3, createdAt: T0 + 10 }),
    ];
    await runBatch(db, insertDeliveries(db, rows));
    const [first, second, third] = rows.map((r) => r.id);
    const page = await listDeliveries(a, hook.id, { page: 1, perPage: 2, offset: 0 });
    expect(page).toMatchObject({ exists: true, total: 3 });
    expect(page.rows.map((r) => r.id)).toEqual([third, second]);
    const next = await listDeliveries(a, hook.id, { page: 2, perPage: 2, offset: 2 });
    expect(next.rows.map((r) => r.id)).toEqual([first]);
    expect(await listDeliveries(b, hook.id, { page: 1, perPage: 10, offset: 0 })).toEqual({
      exists: false,
      total: 0,
      rows: [],
    });
  });

  it("deletes a webhook with its log and attempt counts; another workspace deletes nothing", async () => {
    const [a, b] = await neighbours();
    const { db } = a;
    const hook = await webhook(a);
    const eventId = await event(a);
    await runBatch(db, insertDeliveries(db, [logRow(a, hook.id, eventId)]));
    await takeAttempt(db, { eventId, webhookId: hook.id, seen: 0, busyUntil: T0, now: T0 });
    const attempts = () =>
      db
        .select()
        .from(webhookAttempts)
        .where(and(eq(webhookAttempts.webhookId, hook.id), eq(webhookAttempts.eventId, eventId)));

    expect(await deleteWebhook(b, hook.id)).toBe(false);
    expect(await findWebhook(a, hook.id)).not.toBeNull();
    expect(await attempts()).toHaveLength(1);

    expect(await deleteWebhook(a, hook.id)).toBe(true);
    expect(await findWebhook(a, hook.id)).toBeNull();
    expect(await attempts()).toEqual([]);
    expect(
      await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, hook.id)),
    ).toEqual([]);
  });
});
