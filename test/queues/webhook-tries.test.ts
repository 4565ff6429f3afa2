import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { pruneExpired } from "../../src/db/prune";
import type { Env } from "../../src/platform/env";
import { createWorkspace, type TestWorkspace } from "../helpers/factory";
import { consume, delivery, insertEvents, type QueuedMessage } from "../helpers/queue";
import { everyShard } from "../helpers/every-shard";

/**
 * A webhook gets at most `tries` attempts per event, on its backoff, however
 * the queue redelivers its message; a failing webhook never drags the others
 * of its batch along, and no delivery's failure fails the batch.
 */

const RECEIVER = "https://receiver.example.com";
let calls: string[] = [];

beforeEach(() => {
  calls = [];
  const real = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    if (!request.url.startsWith(RECEIVER)) return real(input, init);
    const path = new URL(request.url).pathname;
    calls.push(path);
    if (path === "/throws") throw new TypeError("fetch failed: socket hang up");
    if (path === "/down") return new Response("", { status: 503 });
    return new Response("ok");
  });
});
afterEach(() => {
  vi.restoreAllMocks();
});

async function subscribe(ws: TestWorkspace, url: string, tries: number) {
  const res = await ws.api("/webhooks", {
    method: "POST",
    body: { url, events: ["customer-created"], tries },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return (res.body as { id: number }).id;
}

const attemptsLogged = async (ws: TestWorkspace, id: number) =>
  ((await ws.api(`/webhooks/${id}/deliveries?per_page=100`)).body.data as { attempt: number }[])
    .map((d) => d.attempt)
    .toSorted((a, b) => a - b);

describe("webhook tries", () => {
  it("a failing webhook gets exactly `tries` attempts while the queue redelivers the whole batch; a healthy one in the batch is delivered once", async () => {
    const ws = await createWorkspace();
    const hooks = {
      // An unresolvable host, a closed port, a fetch that throws, a 503, and a healthy receiver.
      dns: await subscribe(ws, "http://no-such-host.invalid/hook", 2),
      closed: await subscribe(ws, "http://127.0.0.1:1/hook", 2),
      throws: await subscribe(ws, `${RECEIVER}/throws`, 2),
      down: await subscribe(ws, `${RECEIVER}/down`, 3),
      healthy: await subscribe(ws, `${RECEIVER}/healthy`, 2),
    };
    const [eventId = ""] = await insertEvents(ws.id, "customer-created", 1, { handedOver: true });
    const batch: QueuedMessage[] = Object.entries(hooks).map(([name, id]) => ({
      id: name,
      body: delivery(eventId, id),
    }));
    // As the local queue does after a failed batch: every message again, one attempt more, six
    // times (the audit saw six attempts with `tries: 2`).
    for (let round = 1; round <= 6; round++) {
      const outcome = await consume(batch.map((m) => ({ ...m, attempts: round })));
      // Each message is settled on its own; the batch as a whole is neither acked nor retried.
      expect(outcome.ackAll).toBe(false);
      expect(outcome.retryBatch.retry).toBe(false);
      expect(outcome.explicitAcks.length + outcome.retryMessages.length).toBe(batch.length);
      if (round === 1) {
        expect(outcome.explicitAcks).toEqual(["healthy"]);
        expect(outcome.retryMessages.map((m) => m.msgId).toSorted()).toEqual(
          ["closed", "dns", "down", "throws"].toSorted(),
        );
      }
    }
    expect(await attemptsLogged(ws, hooks.dns)).toEqual([1, 2]);
    expect(await attemptsLogged(ws, hooks.closed)).toEqual([1, 2]);
    expect(await attemptsLogged(ws, hooks.throws)).toEqual([1, 2]);
    expect(await attemptsLogged(ws, hooks.down)).toEqual([1, 2, 3]);
    expect(await attemptsLogged(ws, hooks.healthy)).toEqual([1]);
    expect(calls.filter((p) => p === "/throws")).toHaveLength(2);
    expect(calls.filter((p) => p === "/down")).toHaveLength(3);
    expect(calls.filter((p) => p === "/healthy")).toHaveLength(1);
    // One event failed every try: one failure in a row each, still enabled (five events disable).
    for (const id of [hooks.dns, hooks.closed, hooks.throws, hooks.down]) {
      const hook = await everyShard
        .prepare("select status, consecutive_failures as failures from webhooks where id = ?")
        .bind(id)
        .first<{ status: string; failures: number }>();
      expect(hook).toEqual({ status: "enabled", failures: 1 });
    }
    const failed = await ws.api(`/webhooks/${hooks.dns}/deliveries`);
    expect(failed.body.data[0]).toMatchObject({ success: false, status_code: null });
  });

  it("a message back before its backoff is over waits out the rest instead of attempting", async () => {
    const ws = await createWorkspace();
    const id = await subscribe(ws, `${RECEIVER}/down`, 3);
    const [eventId = ""] = await insertEvents(ws.id, "customer-created", 1, { handedOver: true });
    const slow: Env = { ...env, WEBHOOK_RETRY_BASE_SECONDS: "60" };
    const message = { id: "early", body: delivery(eventId, id) };
    const first = await consume([{ ...message, attempts: 1 }], slow);
    expect(first.retryMessages).toEqual([{ msgId: "early" }]);
    // Redelivered at once (a failed batch, a duplicate): no attempt, back to the queue.
    for (const attempts of [2, 3, 4]) {
      const early = await consume([{ ...message, attempts }], slow);
      expect(early.retryMessages).toEqual([{ msgId: "early" }]);
      expect(early.explicitAcks).toEqual([]);
    }
    expect(calls).toEqual(["/down"]);
    expect(await attemptsLogged(ws, id)).toEqual([1]);
    const row = await everyShard
      .prepare(
        "select attempts, next_attempt_at as next from webhook_attempts where event_id = ? and webhook_id = ?",
      )
      .bind(eventId, id)
      .first<{ attempts: number; next: number }>();
    // Equal jitter on a 60 s base: the second try is 30 to 60 s after the first.
    expect(row?.attempts).toBe(1);
    expect(row?.next ?? 0).toBeGreaterThan(Date.now() + 25_000);
    expect(row?.next ?? 0).toBeLessThanOrEqual(Date.now() + 60_000);
  });

  it("two copies of one message in a batch make one attempt", async () => {
    const ws = await createWorkspace();
    const id = await subscribe(ws, `${RECEIVER}/healthy`, 2);
    const [eventId = ""] = await insertEvents(ws.id, "customer-created", 1, { handedOver: true });
    const outcome = await consume([
      { id: "copy-1", body: delivery(eventId, id) },
      { id: "copy-2", body: delivery(eventId, id) },
    ]);
    expect(outcome.explicitAcks.toSorted()).toEqual(["copy-1", "copy-2"]);
    expect(calls).toEqual(["/healthy"]);
    expect(await attemptsLogged(ws, id)).toEqual([1]);
  });

  it("five events that each failed every try disable the webhook, not one", async () => {
    const ws = await createWorkspace();
    const id = await subscribe(ws, `${RECEIVER}/throws`, 1);
    const events = await insertEvents(ws.id, "customer-created", 5, { handedOver: true });
    for (const [i, eventId] of events.entries()) {
      // Each event's message delivered three times over: still one attempt and one failed event.
      for (const attempts of [1, 2, 3])
        await consume([{ id: `e${i}`, body: delivery(eventId, id), attempts }]);
      const status = (await ws.api(`/webhooks/${id}`)).body.status;
      expect(status).toBe(i < 4 ? "enabled" : "disabled");
    }
    expect(calls).toHaveLength(5);
  });

  /** As an invocation that claimed attempt `attempts` and died before recording it leaves D1. */
  const claimedAndDied = (eventId: string, id: number, attempts: number) =>
    everyShard
      .prepare(
        "insert into webhook_attempts (event_id, webhook_id, attempts, next_attempt_at, expires_at) values (?, ?, ?, ?, ?)",
      )
      .bind(eventId, id, attempts, Date.now() - 1_000, Date.now() + 86_400_000)
      .run();

  const logged = async (ws: TestWorkspace, id: number) =>
    (
      (await ws.api(`/webhooks/${id}/deliveries?per_page=100`)).body.data as {
        attempt: number;
        success: boolean;
        error: string | null;
      }[]
    ).toSorted((a, b) => a.attempt - b.attempt);

  it("an attempt whose invocation died after claiming it is logged as failed, and the next one follows it", async () => {
    const ws = await createWorkspace();
    const id = await subscribe(ws, `${RECEIVER}/healthy`, 2);
    const [eventId = ""] = await insertEvents(ws.id, "customer-created", 1, { handedOver: true });
    await claimedAndDied(eventId, id, 1);
    const outcome = await consume([{ id: "after-death", body: delivery(eventId, id) }]);
    expect(outcome.explicitAcks).toEqual(["after-death"]);
    expect(calls).toEqual(["/healthy"]);
    const rows = await logged(ws, id);
    expect(rows.map((r) => [r.attempt, r.success])).toEqual([
      [1, false],
      [2, true],
    ]);
    expect(rows[0]?.error).toMatch(/ended before/);
  });

  it("a final attempt whose invocation died after claiming it settles the event as failed, once", async () => {
    const ws = await createWorkspace();
    const id = await subscribe(ws, `${RECEIVER}/healthy`, 1);
    const [eventId = ""] = await insertEvents(ws.id, "customer-created", 1, { handedOver: true });
    await claimedAndDied(eventId, id, 1);
    const dlq: unknown[] = [];
    const deadLetters = { send: async (body: unknown) => void dlq.push(body) };
    const bindings = { ...env, WEBHOOK_DLQ: deadLetters } as unknown as Env;
    for (const copy of ["late-1", "late-2"]) {
      const outcome = await consume([{ id: copy, body: delivery(eventId, id) }], bindings);
      expect(outcome.explicitAcks).toEqual([copy]);
    }
    // No attempt beyond `tries`; the lost one is in the log, the dead-letter queue and the count.
    expect(calls).toEqual([]);
    const rows = await logged(ws, id);
    expect(rows.map((r) => [r.attempt, r.success])).toEqual([[1, false]]);
    expect(dlq).toHaveLength(1);
    const hook = await everyShard
      .prepare("select consecutive_failures as failures from webhooks where id = ?")
      .bind(id)
      .first<{ failures: number }>();
    expect(hook?.failures).toBe(1);
  });

  it("a webhook stored before the URL rules refused its address is not called: a failed attempt, not a request", async () => {
    const ws = await createWorkspace();
    const id = await subscribe(ws, `${RECEIVER}/healthy`, 1);
    // As rows written under the older, laxer rules hold them (192.0.0.0/24 and *.corp came later).
    for (const url of ["http://192.0.0.8/hook", "https://hooks.corp/hook"]) {
      await everyShard.prepare("update webhooks set url = ? where id = ?").bind(url, id).run();
      const [eventId = ""] = await insertEvents(ws.id, "customer-created", 1, { handedOver: true });
      const production = { ...env, ALLOW_PRIVATE_WEBHOOKS: "false" } as Env;
      const outcome = await consume([{ id: url, body: delivery(eventId, id) }], production);
      expect(outcome.explicitAcks).toEqual([url]);
    }
    const sent = vi.mocked(globalThis.fetch).mock.calls.map(([input]) => String(input));
    expect(sent.filter((u) => /192\.0\.0\.8|hooks\.corp/.test(u))).toEqual([]);
    const rows = await logged(ws, id);
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row.error).toMatch(/^request not sent: Private/);
  });

  it("an event's attempt count is kept 15 days past its last attempt, then pruned", async () => {
    const ws = await createWorkspace();
    const id = await subscribe(ws, `${RECEIVER}/healthy`, 2);
    const [eventId = ""] = await insertEvents(ws.id, "customer-created", 1, { handedOver: true });
    await consume([{ id: "kept", body: delivery(eventId, id) }]);
    const expiry = async () =>
      (
        await everyShard
          .prepare("select expires_at as at from webhook_attempts where event_id = ?")
          .bind(eventId)
          .first<{ at: number }>()
      )?.at;
    const at = (await expiry()) ?? 0;
    expect(at - Date.now()).toBeGreaterThan(15 * 86_400_000 - 60_000);
    await pruneExpired(everyShard, at - 1);
    expect(await expiry()).toBe(at);
    await pruneExpired(everyShard, at + 1);
    expect(await expiry()).toBeUndefined();
  });
});
