import { env } from "cloudflare:workers";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { calendarFor } from "../../src/calendar/client";
import { MESSAGE_QUEUE_NAME, type MessageQueueBody } from "../../src/messages/delivery/queue";
import type { Env } from "../../src/platform/env";
import type { WebhookMessage } from "../../src/webhooks/messages";
import {
  createLocation,
  createStaffer,
  createWorkspace,
  type TestWorkspace,
} from "../helpers/factory";
import { consume, consumeFrom } from "../helpers/queue";
import { countsOf, d1, onlyOn } from "../helpers/shard-rows";

/**
 * Background work on workspaces of different shards: each queue message and
 * each calendar object reads and writes the shard its workspace lives on, and
 * nothing lands in another shard or in the directory's tenant tables.
 */

/** Two workspaces on two different shards (new ones go to the emptiest). */
async function onTwoShards(): Promise<[TestWorkspace, TestWorkspace]> {
  const a = await createWorkspace();
  for (let i = 0; i < 8; i++) {
    const b = await createWorkspace();
    if (b.shard !== a.shard) return [a, b];
  }
  throw new Error("every new workspace landed on one shard");
}

const RECEIVER = "https://receiver.example.com";
let calls: URL[] = [];

beforeEach(() => {
  calls = [];
  const real = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    if (!request.url.startsWith(RECEIVER)) return real(input, init);
    calls.push(new URL(request.url));
    return new Response("ok");
  });
});
afterEach(() => {
  vi.restoreAllMocks();
});

let a: TestWorkspace;
let b: TestWorkspace;
beforeAll(async () => {
  [a, b] = await onTwoShards();
  expect(a.shard).toMatch(/^SHARD_\d$/);
  expect(b.shard).toMatch(/^SHARD_\d$/);
});

async function subscribe(ws: TestWorkspace, path: string): Promise<number> {
  const res = await ws.api("/webhooks", {
    method: "POST",
    body: { url: `${RECEIVER}${path}`, events: ["customer-created"] },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return (res.body as { id: number }).id;
}

/** An outbox event written on the workspace's own shard, already handed to the queue. */
async function eventOn(ws: TestWorkspace): Promise<string> {
  const id = crypto.randomUUID();
  await d1(ws.shard)
    .prepare(
      "INSERT INTO events (id, workspace_id, type, payload, created_at, dispatched_at) VALUES (?, ?, 'customer-created', '{}', ?, ?)",
    )
    .bind(id, ws.id, Date.now(), Date.now())
    .run();
  return id;
}

/** A customer e-mail due now, written on the workspace's own shard. */
async function messageOn(ws: TestWorkspace): Promise<string> {
  const id = crypto.randomUUID();
  const now = Date.now();
  await d1(ws.shard)
    .prepare(
      `INSERT INTO messages (id, workspace_id, kind, channel, "to", locale, subject, body, status,
       scheduled_for, attempts, lease_until, created_at)
       VALUES (?, ?, 'booking-confirmation', 'email', 'ada@example.com', 'en', 'Booked', 'See you.',
       'scheduled', ?, 0, NULL, ?)`,
    )
    .bind(id, ws.id, now, now)
    .run();
  return id;
}

const setPlacement = (ws: TestWorkspace, placement: string) =>
  d1(ws.shard)
    .prepare("UPDATE workspaces SET placement = ? WHERE id = ?")
    .bind(placement, ws.id)
    .run();

/** A queue binding that keeps what is sent to it (and sends nothing on). */
function keptQueue<B>() {
  const sent: { body: B; delaySeconds?: number }[] = [];
  const queue = {
    send: async (body: B, options?: { delaySeconds?: number }) => {
      sent.push({ body, ...(options?.delaySeconds ? { delaySeconds: options.delaySeconds } : {}) });
    },
    sendBatch: async (messages: { body: B }[]) => {
      for (const m of messages) sent.push({ body: m.body });
    },
  };
  return { sent, queue };
}

describe("webhook deliveries find their workspace's shard", () => {
  it("delivers events of two shards, each logged on its own shard only (with and without the workspace named)", async () => {
    const hookA = await subscribe(a, "/a");
    const hookB = await subscribe(b, "/b");
    const eventA = await eventOn(a);
    const eventB = await eventOn(b);
    const outcome = await consume([
      {
        id: "qa",
        body: { kind: "delivery", eventId: eventA, webhookId: hookA, workspaceId: a.id },
      },
      // A message from before shards names no workspace: its event is found where it is.
      { id: "qb", body: { kind: "delivery", eventId: eventB, webhookId: hookB } },
    ]);
    expect(outcome.explicitAcks.sort()).toEqual(["qa", "qb"]);
    expect(calls.map((c) => c.pathname).sort()).toEqual(["/a", "/b"]);

    const logged =
      "SELECT count(*) AS n FROM webhook_deliveries WHERE event_id = ? AND success = 1";
    const counted = "SELECT count(*) AS n FROM webhook_attempts WHERE event_id = ?";
    expect(await countsOf(logged, eventA)).toEqual(onlyOn(a.shard));
    expect(await countsOf(logged, eventB)).toEqual(onlyOn(b.shard));
    expect(await countsOf(counted, eventA)).toEqual(onlyOn(a.shard));
    expect(await countsOf(counted, eventB)).toEqual(onlyOn(b.shard));
  });

  it("fans an event out into deliveries that name its workspace", async () => {
    const hook = await subscribe(b, "/fan");
    const eventB = await eventOn(b);
    const kept = keptQueue<WebhookMessage>();
    const bindings = { ...env, WEBHOOK_QUEUE: kept.queue } as unknown as Env;
    const outcome = await consume(
      [{ id: "qe", body: { kind: "event", eventId: eventB } }],
      bindings,
    );
    expect(outcome.explicitAcks).toEqual(["qe"]);
    expect(kept.sent.map((s) => s.body)).toContainEqual({
      kind: "delivery",
      eventId: eventB,
      webhookId: hook,
      workspaceId: b.id,
    });
  });

  it("puts a delivery off while a move pauses its workspace: nothing sent, nothing written, a copy later", async () => {
    const hook = await subscribe(a, "/paused");
    const eventA = await eventOn(a);
    const kept = keptQueue<WebhookMessage>();
    const bindings = { ...env, WEBHOOK_QUEUE: kept.queue } as unknown as Env;
    await setPlacement(a, "moving_out");
    try {
      const body = {
        kind: "delivery",
        eventId: eventA,
        webhookId: hook,
        workspaceId: a.id,
      } as const;
      const outcome = await consume([{ id: "qp", body }], bindings);
      // Acknowledged only because a new copy waits on the queue: the queue's retries are spared.
      expect(outcome.explicitAcks).toEqual(["qp"]);
      expect(outcome.retryMessages).toEqual([]);
      expect(kept.sent).toEqual([{ body, delaySeconds: 10 }]);
      expect(calls).toEqual([]);
      const counted = "SELECT count(*) AS n FROM webhook_attempts WHERE event_id = ?";
      expect(await countsOf(counted, eventA)).toEqual(onlyOn(a.shard, 0));
    } finally {
      await setPlacement(a, "open");
    }
    // The copy, once the move let go: delivered on the workspace's shard.
    const copy = kept.sent[0];
    if (!copy) throw new Error("no copy was queued");
    const later = await consume([{ id: "qp2", body: copy.body }]);
    expect(later.explicitAcks).toEqual(["qp2"]);
    expect(calls.map((c) => c.pathname)).toEqual(["/paused"]);
  });
});

describe("customer messages find their workspace's shard", () => {
  const consumeMessages = (messages: { id: string; body: MessageQueueBody }[], bindings?: Env) =>
    consumeFrom<MessageQueueBody>(MESSAGE_QUEUE_NAME, messages, bindings);
  const state = "SELECT count(*) AS n FROM messages WHERE id = ? AND status = 'sent'";

  it("sends a message of each shard and records it there only", async () => {
    const ma = await messageOn(a);
    const mb = await messageOn(b);
    const outcome = await consumeMessages([
      { id: "ma", body: { kind: "message", messageId: ma, workspaceId: a.id } },
      { id: "mb", body: { kind: "message", messageId: mb, workspaceId: b.id } },
    ]);
    expect(outcome.explicitAcks.sort()).toEqual(["ma", "mb"]);
    expect(await countsOf(state, ma)).toEqual(onlyOn(a.shard));
    expect(await countsOf(state, mb)).toEqual(onlyOn(b.shard));
  });

  it("puts a message off while a move pauses its workspace, and sends it once the move lets go", async () => {
    const mb = await messageOn(b);
    const kept = keptQueue<MessageQueueBody>();
    const bindings = { ...env, MESSAGE_QUEUE: kept.queue } as unknown as Env;
    const body: MessageQueueBody = { kind: "message", messageId: mb, workspaceId: b.id };
    await setPlacement(b, "moving_out");
    try {
      const outcome = await consumeMessages([{ id: "mp", body }], bindings);
      expect(outcome.explicitAcks).toEqual(["mp"]);
      expect(kept.sent).toEqual([{ body, delaySeconds: 10 }]);
      const untouched =
        "SELECT count(*) AS n FROM messages WHERE id = ? AND lease_until IS NULL AND attempts = 0";
      expect(await countsOf(untouched, mb)).toEqual(onlyOn(b.shard));
    } finally {
      await setPlacement(b, "open");
    }
    await consumeMessages([{ id: "mp2", body }]);
    expect(await countsOf(state, mb)).toEqual(onlyOn(b.shard));
  });

  it("drops the message of a workspace the directory does not know", async () => {
    const outcome = await consumeMessages([
      { id: "gone", body: { kind: "message", messageId: "m-gone", workspaceId: "no-such-ws" } },
    ]);
    expect(outcome.explicitAcks).toEqual(["gone"]);
    expect(outcome.retryMessages).toEqual([]);
  });
});

describe("a calendar object reads and fences on its workspace's shard", () => {
  it("audits against its shard, and settles a hold with a fence that names the workspace", async () => {
    const location = await createLocation(b);
    const staffer = await createStaffer(b, [location.uuid]);
    const start = Date.UTC(2031, 0, 6, 9);
    await d1(b.shard)
      .prepare(
        "INSERT INTO calendar_entries (id, workspace_id, staffer_id, location_id, kind, source_id, starts_at, ends_at) VALUES ('on-shard', ?, ?, ?, 'booking', 'b-on-shard', ?, ?)",
      )
      .bind(b.id, staffer.uuid, location.uuid, start, start + 3_600_000)
      .run();
    const cal = calendarFor(env, b.id, staffer.uuid);
    const audit = await cal.audit(b.id, staffer.uuid);
    expect(audit.only_in_d1.map((e) => e.booking_uuid)).toEqual(["b-on-shard"]);

    const owner = { workspaceId: b.id, calendarId: staffer.uuid };
    const entry = {
      id: "never-written",
      kind: "booking" as const,
      source: "b-never",
      start: start + 4 * 3_600_000,
      end: start + 5 * 3_600_000,
    };
    expect(
      await cal.claim({ owner, holdId: "ambiguous", entries: [entry], checkConflicts: true }),
    ).toMatchObject({ ok: true });
    // The write failed without an answer: the settle reads the shard (no such entry there).
    expect(await cal.settle("ambiguous", { entries: ["never-written"], replaces: [] })).toEqual({
      committed: false,
    });
    const fenced = "SELECT count(*) AS n FROM hold_fences WHERE hold_id = ?";
    expect(await countsOf(fenced, "ambiguous")).toEqual(onlyOn(b.shard));
    const named = await d1(b.shard)
      .prepare("SELECT workspace_id FROM hold_fences WHERE hold_id = 'ambiguous'")
      .first<{ workspace_id: string }>();
    expect(named?.workspace_id).toBe(b.id);
  });
});
