import {
  createExecutionContext,
  createScheduledController,
  waitOnExecutionContext,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import worker from "../../src/index";
import type { MessageQueueBody } from "../../src/messages/delivery/queue";
import type { Env } from "../../src/platform/env";
import type { WebhookMessage } from "../../src/webhooks/messages";
import { createWorkspace, type TestWorkspace } from "../helpers/factory";
import { countsOf, d1, onlyOn } from "../helpers/shard-rows";

/**
 * The cron goes over every database: each sweep reads a whole shard and acts
 * on the workspaces the directory places there, writing on their own shard;
 * prunes leave alone the rows of a workspace a move is carrying.
 */

const DAY = 24 * 3_600_000;

/** Three workspaces, the first two on different shards (new ones go to the emptiest). */
async function workspaces(): Promise<[TestWorkspace, TestWorkspace, TestWorkspace]> {
  const a = await createWorkspace();
  for (let i = 0; i < 8; i++) {
    const b = await createWorkspace();
    if (b.shard !== a.shard) return [a, b, await createWorkspace()];
  }
  throw new Error("every new workspace landed on one shard");
}

function keptQueue<B>() {
  const sent: B[] = [];
  const queue = {
    send: async (body: B) => void sent.push(body),
    sendBatch: async (messages: { body: B }[]) => {
      for (const m of messages) sent.push(m.body);
    },
  };
  return { sent, queue };
}

/** One cron run, with the queues kept in the test, waited for to the end. */
async function cron() {
  const webhooks = keptQueue<WebhookMessage>();
  const messages = keptQueue<MessageQueueBody>();
  const bindings = {
    ...env,
    WEBHOOK_QUEUE: webhooks.queue,
    MESSAGE_QUEUE: messages.queue,
  } as unknown as Env;
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ cron: "* * * * *" }), bindings, ctx);
  await waitOnExecutionContext(ctx);
  return { webhooks: webhooks.sent, messages: messages.sent };
}

const run = (ws: TestWorkspace, sql: string, ...values: unknown[]) =>
  d1(ws.shard)
    .prepare(sql)
    .bind(...values)
    .run();

let a: TestWorkspace;
let b: TestWorkspace;
/** A third workspace, which a move is carrying away from its shard in some tests. */
let c: TestWorkspace;
beforeAll(async () => {
  [a, b, c] = await workspaces();
});

const moving = async <T>(ws: TestWorkspace, work: () => Promise<T>): Promise<T> => {
  await run(ws, "UPDATE workspaces SET placement = 'moving_out' WHERE id = ?", ws.id);
  try {
    return await work();
  } finally {
    await run(ws, "UPDATE workspaces SET placement = 'open' WHERE id = ?", ws.id);
  }
};

describe("the cron over every shard", () => {
  it("hands over the lost events of workspaces on two shards, each marked on its own shard", async () => {
    const old = Date.now() - 5 * 60_000;
    const ids = new Map([a, b].map((ws) => [ws.id, crypto.randomUUID()]));
    for (const ws of [a, b]) {
      await run(
        ws,
        "INSERT INTO events (id, workspace_id, type, payload, created_at) VALUES (?, ?, 'customer-created', '{}', ?)",
        ids.get(ws.id),
        ws.id,
        old,
      );
    }
    const { webhooks } = await cron();
    for (const ws of [a, b]) {
      const eventId = ids.get(ws.id) ?? "";
      expect(webhooks).toContainEqual({ kind: "event", eventId, workspaceId: ws.id });
      const marked = "SELECT count(*) AS n FROM events WHERE id = ? AND dispatched_at IS NOT NULL";
      expect(await countsOf(marked, eventId)).toEqual(onlyOn(ws.shard));
    }
  });

  it("leaves the events of a workspace a move is carrying for a later run", async () => {
    const id = crypto.randomUUID();
    await run(
      c,
      "INSERT INTO events (id, workspace_id, type, payload, created_at) VALUES (?, ?, 'customer-created', '{}', ?)",
      id,
      c.id,
      Date.now() - 5 * 60_000,
    );
    const { webhooks } = await moving(c, cron);
    expect(webhooks.filter((m) => m.eventId === id)).toEqual([]);
    const pending = "SELECT count(*) AS n FROM events WHERE id = ? AND dispatched_at IS NULL";
    expect(await countsOf(pending, id)).toEqual(onlyOn(c.shard));
    // The move let go: the next run sends it.
    expect((await cron()).webhooks).toContainEqual({
      kind: "event",
      eventId: id,
      workspaceId: c.id,
    });
  });

  it("enqueues the overdue messages of workspaces on two shards, each naming its workspace", async () => {
    const ids: Record<string, string> = {};
    for (const ws of [a, b]) {
      ids[ws.id] = crypto.randomUUID();
      const due = Date.now() - 5 * 60_000;
      await run(
        ws,
        `INSERT INTO messages (id, workspace_id, kind, channel, "to", locale, subject, body, status,
         scheduled_for, attempts, lease_until, created_at)
         VALUES (?, ?, 'booking-confirmation', 'email', 'ada@example.com', 'en', 'Booked', 'See you.',
         'scheduled', ?, 0, NULL, ?)`,
        ids[ws.id],
        ws.id,
        due,
        due,
      );
    }
    const { messages } = await cron();
    for (const ws of [a, b])
      expect(messages).toContainEqual({
        kind: "message",
        messageId: ids[ws.id],
        workspaceId: ws.id,
      });
  });

  it("prunes expired rows on every shard, but not those of a workspace a move is carrying", async () => {
    const expired = Date.now() - 2 * DAY;
    const key = (ws: TestWorkspace) =>
      run(
        ws,
        "INSERT INTO idempotency_keys (workspace_id, api_key_id, key, method, path, body_hash, status, response, created_at, expires_at) VALUES (?, 'k', ?, 'POST', '/x', 'h', 201, '{}', ?, ?)",
        ws.id,
        `key-${ws.id}`,
        expired,
        expired,
      );
    const fence = (ws: TestWorkspace, holdId: string, workspaceId: string | null) =>
      run(
        ws,
        "INSERT INTO hold_fences (hold_id, created_at, workspace_id) VALUES (?, ?, ?)",
        holdId,
        expired,
        workspaceId,
      );
    for (const ws of [a, b, c]) await key(ws);
    await fence(a, "fence-a", a.id);
    await fence(b, "fence-before-shards", null);
    await fence(c, "fence-c", c.id);

    await moving(c, cron);

    const keys = "SELECT count(*) AS n FROM idempotency_keys WHERE workspace_id = ?";
    expect(await countsOf(keys, a.id)).toEqual(onlyOn(a.shard, 0));
    expect(await countsOf(keys, b.id)).toEqual(onlyOn(b.shard, 0));
    // The moving workspace's rows are the move's: still there.
    expect(await countsOf(keys, c.id)).toEqual(onlyOn(c.shard));
    const fences = "SELECT count(*) AS n FROM hold_fences WHERE hold_id = ?";
    expect(await countsOf(fences, "fence-a")).toEqual(onlyOn(a.shard, 0));
    expect(await countsOf(fences, "fence-before-shards")).toEqual(onlyOn(b.shard, 0));
    expect(await countsOf(fences, "fence-c")).toEqual(onlyOn(c.shard));

    // Open again: the next run prunes them.
    await cron();
    expect(await countsOf(keys, c.id)).toEqual(onlyOn(c.shard, 0));
    expect(await countsOf(fences, "fence-c")).toEqual(onlyOn(c.shard, 0));
  });
});
