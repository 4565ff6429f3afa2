import { createHmac } from "node:crypto";
import {
  createExecutionContext,
  createScheduledController,
  waitOnExecutionContext,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createDb } from "../../src/db/client";
import { findWebhook } from "../../src/webhooks/queries/webhooks";
import worker from "../../src/index";
import { attemptDelivery } from "../../src/webhooks/deliver";
import { failingD1 } from "../helpers/db";
import { createWorkspace, type TestWorkspace } from "../helpers/factory";
import { consume, delivery, event, insertEvents } from "../helpers/queue";
import { at, createSalon, customer, type Salon } from "../helpers/salon";
import { everyShard, shardOf } from "../helpers/every-shard";

/** Calls the Worker makes to receivers, captured by an in-test receiver. */
interface Call {
  url: URL;
  method: string;
  headers: Headers;
  body: string;
}

const RECEIVER = "https://receiver.example.com";
let calls: Call[] = [];
let respond: (call: Call, signal: AbortSignal | null) => Promise<Response> | Response;

beforeEach(() => {
  calls = [];
  respond = () => new Response("ok");
  const real = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    if (!request.url.startsWith(RECEIVER)) return real(input, init);
    const call = {
      url: new URL(request.url),
      method: request.method,
      headers: request.headers,
      body: await request.text(),
    };
    calls.push(call);
    return respond(call, init?.signal ?? null);
  });
});
afterEach(() => {
  vi.restoreAllMocks();
});

async function until<T>(probe: () => Promise<T | undefined | false>, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 50));
  }
}

const callsTo = (path: string) => calls.filter((c) => c.url.pathname === path);

let salon: Salon;
let slot = 0;
beforeAll(async () => {
  salon = await createSalon(3);
});

/** A fresh booking on a free slot (one per call). */
async function book(ws: TestWorkspace = salon.ws) {
  const day = `2030-04-${String(1 + Math.floor(slot / 8)).padStart(2, "0")}`;
  const hour = 8 + (slot % 8);
  slot++;
  const res = await ws.api("/bookings", {
    method: "POST",
    body: {
      location_uuid: salon.location.uuid,
      service_uuid: salon.cut.uuid,
      reserved_on: at(`${String(hour).padStart(2, "0")}:00`, day),
      ...customer(),
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { uuid: string };
}

async function subscribe(path: string, body: Record<string, unknown> = {}, ws = salon.ws) {
  const res = await ws.api("/webhooks", {
    method: "POST",
    body: { url: `${RECEIVER}${path}`, events: ["booking-created"], ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: number; secret: string };
}

const deliveries = async (id: number, ws = salon.ws) =>
  (await ws.api(`/webhooks/${id}/deliveries?per_page=100`)).body.data as {
    attempt: number;
    success: boolean;
    status_code: number | null;
    error: string | null;
    kind: string;
    event_type: string;
  }[];

/** An independent Standard Webhooks verifier (node:crypto, not the Worker's WebCrypto code). */
function expectedSignature(secret: string, id: string, timestamp: string, body: string) {
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  return `v1,${createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64")}`;
}

describe("webhook delivery through the queue", () => {
  it("delivers a booking as a signed callback with the envelope, method, headers and parameters", async () => {
    const hook = await subscribe("/signed", {
      method: "put",
      headers: [{ name: "X-Token", value: "abc" }],
      parameters: [{ name: "tenant", value: "salon-1" }],
    });
    const booking = await book();
    const [call] = await until(async () => callsTo("/signed").length > 0 && callsTo("/signed"));
    if (!call) throw new Error("no call");
    expect(call.method).toBe("PUT");
    expect(call.url.searchParams.get("tenant")).toBe("salon-1");
    expect(call.headers.get("x-token")).toBe("abc");
    expect(call.headers.get("content-type")).toBe("application/json");
    const envelope = JSON.parse(call.body);
    expect(envelope).toMatchObject({
      type: "booking-created",
      workspace: salon.ws.id,
      data: { uuid: booking.uuid, location_uuid: salon.location.uuid },
    });
    expect(envelope.created_at).toMatch(/Z$/);
    const id = call.headers.get("webhook-id") ?? "";
    const timestamp = call.headers.get("webhook-timestamp") ?? "";
    expect(id).toBe(envelope.id);
    expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(300);
    expect(call.headers.get("webhook-signature")).toBe(
      expectedSignature(hook.secret, id, timestamp, call.body),
    );
    const log = await until(async () => {
      const d = await deliveries(hook.id);
      return d.length > 0 && d;
    });
    expect(log).toMatchObject([{ attempt: 1, success: true, status_code: 200, kind: "http" }]);
  });

  it("retries a 500 and logs both attempts under the same webhook-id", async () => {
    const ws = await createWorkspace();
    const hook = await subscribe("/flaky", { events: ["customer-created"] }, ws);
    let n = 0;
    respond = (call) =>
      call.url.pathname === "/flaky" && n++ === 0
        ? new Response("boom", { status: 500 })
        : new Response("ok");
    const [eventId = ""] = await insertEvents(ws.id, "customer-created", 1, { handedOver: true });
    // The same message twice, as the queue redelivers a retried one: same id, one more attempt.
    const message = { id: "flaky-1", body: delivery(eventId, hook.id) };
    // Retried at once under the tests' zero backoff (a zero delay is reported as none).
    const first = await consume([{ ...message, attempts: 1 }]);
    expect(first.explicitAcks).toEqual([]);
    expect(first.retryMessages).toEqual([{ msgId: "flaky-1" }]);
    expect(await consume([{ ...message, attempts: 2 }])).toMatchObject({
      explicitAcks: ["flaky-1"],
      retryMessages: [],
    });
    const log = await deliveries(hook.id, ws);
    expect(
      log
        .map((d) => [d.attempt, d.success, d.status_code])
        .sort((a, b) => Number(a[0]) - Number(b[0])),
    ).toEqual([
      [1, false, 500],
      [2, true, 200],
    ]);
    const ids = callsTo("/flaky").map((c) => c.headers.get("webhook-id"));
    expect(ids).toHaveLength(2);
    expect(ids[0]).toBe(ids[1]);
  });

  it("retries a receiver that times out", async () => {
    const ws = await createWorkspace();
    const hook = await subscribe("/slow", { timeout: 1, events: ["customer-created"] }, ws);
    let n = 0;
    respond = (call, signal) => {
      if (call.url.pathname !== "/slow" || n++ > 0) return new Response("ok");
      return new Promise((_, reject) => {
        signal?.addEventListener("abort", () => reject(signal.reason));
      });
    };
    const [eventId = ""] = await insertEvents(ws.id, "customer-created", 1, { handedOver: true });
    const message = { id: "slow-1", body: delivery(eventId, hook.id) };
    expect(await consume([{ ...message, attempts: 1 }])).toMatchObject({
      explicitAcks: [],
      retryMessages: [{ msgId: "slow-1" }],
    });
    expect(await consume([{ ...message, attempts: 2 }])).toMatchObject({
      explicitAcks: ["slow-1"],
      retryMessages: [],
    });
    const log = await deliveries(hook.id, ws);
    const first = log.find((d) => d.attempt === 1);
    expect(first).toMatchObject({
      success: false,
      status_code: null,
      error: "timed out after 1 s",
    });
    expect(log.find((d) => d.attempt === 2)?.success).toBe(true);
  });

  it("sends nothing to disabled, deleted or other workspaces' webhooks", async () => {
    const ws = await createWorkspace();
    const disabled = await subscribe("/disabled", {}, ws);
    await ws.api(`/webhooks/${disabled.id}/disable`, { method: "POST" });
    const deleted = await subscribe("/deleted", {}, ws);
    await ws.api(`/webhooks/${deleted.id}`, { method: "DELETE" });
    const other = await createWorkspace();
    const stranger = await subscribe("/stranger", {}, other);
    const control = await subscribe("/control", {}, ws);
    const [eventId = ""] = await insertEvents(ws.id, "booking-created", 1, { handedOver: true });
    // The event fans out (through the real queue) to the one enabled webhook of its workspace.
    expect(await consume([{ id: "fan-out", body: event(eventId) }])).toMatchObject({
      explicitAcks: ["fan-out"],
      retryMessages: [],
    });
    await until(async () => callsTo("/control").length > 0);
    // A delivery message for any of the others (a duplicate, or one from before the change) is
    // acknowledged without a call.
    const others = await consume([
      { id: "disabled", body: delivery(eventId, disabled.id) },
      { id: "deleted", body: delivery(eventId, deleted.id) },
      { id: "stranger", body: delivery(eventId, stranger.id) },
    ]);
    expect(others.explicitAcks.toSorted()).toEqual(["deleted", "disabled", "stranger"]);
    expect(others.retryMessages).toEqual([]);
    // Give any stray delivery the same time again.
    await new Promise((r) => setTimeout(r, 1500));
    expect(callsTo("/disabled")).toEqual([]);
    expect(callsTo("/deleted")).toEqual([]);
    expect(callsTo("/stranger")).toEqual([]);
    expect(await deliveries(control.id, ws)).toHaveLength(1);
  });

  it("disables a webhook at once on 410 Gone", async () => {
    const ws = await createWorkspace();
    const hook = await subscribe("/gone", { tries: 5, events: ["customer-created"] }, ws);
    respond = (call) =>
      call.url.pathname === "/gone" ? new Response("", { status: 410 }) : new Response("ok");
    const [eventId = ""] = await insertEvents(ws.id, "customer-created", 1, { handedOver: true });
    // Acknowledged at the first attempt, four tries left: a 410 is not retried.
    expect(await consume([{ id: "gone-1", body: delivery(eventId, hook.id) }])).toMatchObject({
      explicitAcks: ["gone-1"],
      retryMessages: [],
    });
    expect((await ws.api(`/webhooks/${hook.id}`)).body.status).toBe("disabled");
    expect(callsTo("/gone")).toHaveLength(1);
    expect(await deliveries(hook.id, ws)).toMatchObject([{ attempt: 1, status_code: 410 }]);
  });

  it("gives up after `tries`, and disables a webhook that failed 5 events in a row", async () => {
    const ws = await createWorkspace();
    const hook = await subscribe("/down", { tries: 2, events: ["order-paid"] }, ws);
    respond = (call) =>
      call.url.pathname === "/down" ? new Response("", { status: 503 }) : new Response("ok");
    const events = await insertEvents(ws.id, "order-paid", 5, { handedOver: true });
    const messages = events.map((eventId) => ({ id: eventId, body: delivery(eventId, hook.id) }));
    // First tries: each retried, without delay under the tests' zero backoff.
    const first = await consume(messages.map((m) => ({ ...m, attempts: 1 })));
    expect(first.explicitAcks).toEqual([]);
    expect(first.retryMessages.map((m) => m.msgId).toSorted()).toEqual(events.toSorted());
    expect(first.retryMessages.every((m) => (m.delaySeconds ?? 0) === 0)).toBe(true);
    // Second and last tries: each given up, acknowledged (and dead-lettered).
    const last = await consume(messages.map((m) => ({ ...m, attempts: 2 })));
    expect(last.explicitAcks.toSorted()).toEqual(events.toSorted());
    expect(last.retryMessages).toEqual([]);
    expect((await ws.api(`/webhooks/${hook.id}`)).body.status).toBe("disabled");
    const log = await deliveries(hook.id, ws);
    expect(log).toHaveLength(10);
    expect(log.every((d) => !d.success && d.status_code === 503)).toBe(true);
    expect(log.filter((d) => d.attempt === 2)).toHaveLength(5);
    const enabled = await ws.api(`/webhooks/${hook.id}/enable`, { method: "POST" });
    expect(enabled.body.status).toBe("enabled");
  });

  it("records a notification e-mail as a delivery of kind email", async () => {
    const ws = await createWorkspace();
    const hook = await subscribe(
      "/mailed",
      { send_notification: true, emails: "owner@salon.example, desk@salon.example" },
      ws,
    );
    const [eventId = ""] = await insertEvents(ws.id, "booking-created", 1, { handedOver: true });
    // The fan-out mails, then hands the callback to the real queue.
    expect(await consume([{ id: "mailed", body: event(eventId) }])).toMatchObject({
      explicitAcks: ["mailed"],
      retryMessages: [],
    });
    const log = await until(async () => {
      const d = await deliveries(hook.id, ws);
      return d.length >= 2 && d;
    });
    expect(log.map((d) => d.kind).sort()).toEqual(["email", "http"]);
    expect(log.find((d) => d.kind === "email")).toMatchObject({
      success: true,
      event_type: "booking-created",
    });
  });

  it("signs with both secrets during a rotation", async () => {
    const ws = await createWorkspace();
    const hook = await subscribe("/rotated", { events: ["customer-created"] }, ws);
    const rotated = await ws.api(`/webhooks/${hook.id}/rotate-secret`, { method: "POST" });
    const [eventId = ""] = await insertEvents(ws.id, "customer-created", 1, { handedOver: true });
    expect(await consume([{ id: "rotated", body: delivery(eventId, hook.id) }])).toMatchObject({
      explicitAcks: ["rotated"],
    });
    const [call] = callsTo("/rotated");
    if (!call) throw new Error("no call");
    const id = call.headers.get("webhook-id") ?? "";
    const ts = call.headers.get("webhook-timestamp") ?? "";
    expect(call.headers.get("webhook-signature")?.split(" ")).toEqual([
      expectedSignature(rotated.body.secret, id, ts, call.body),
      expectedSignature(hook.secret, id, ts, call.body),
    ]);
  });

  it("the cron sweep delivers an event whose queue send was lost", async () => {
    const ws = await createWorkspace();
    const hook = await subscribe("/swept", { events: ["customer-created"] }, ws);
    // As if the Worker died between the D1 commit and the queue send.
    const [eventId] = await insertEvents(ws.id, "customer-created", 1);
    await new Promise((r) => setTimeout(r, 1200));
    expect(callsTo("/swept")).toEqual([]);
    await runSweep();
    const [call] = await until(async () => callsTo("/swept").length > 0 && callsTo("/swept"));
    expect(call?.headers.get("webhook-id")).toBe(eventId);
    const row = await everyShard
      .prepare("select dispatched_at from events where id = ?")
      .bind(eventId)
      .first<{ dispatched_at: number | null }>();
    expect(row?.dispatched_at).not.toBeNull();
    expect((await deliveries(hook.id, ws))[0]?.success).toBe(true);
  });

  it("logs a webhook whose stored header cannot be sent as a failed attempt, and sends nothing", async () => {
    // Rows from before header values were validated: the API now refuses these with 422.
    const ws = await createWorkspace();
    const crlf = await subscribe("/crlf", { tries: 2, events: ["customer-created"] }, ws);
    const euro = await subscribe("/euro", { tries: 1, events: ["customer-created"] }, ws);
    const healthy = await subscribe("/control-ok", { events: ["customer-created"] }, ws);
    await setHeaders(crlf.id, [{ name: "X-Token", value: "abc\r\nX-Injected: 1" }]);
    await setHeaders(euro.id, [{ name: "X-Price", value: "5 €" }]);
    const [eventId = ""] = await insertEvents(ws.id, "customer-created", 1, { handedOver: true });
    const first = await consume([
      { id: "crlf", body: delivery(eventId, crlf.id) },
      { id: "euro", body: delivery(eventId, euro.id) },
      { id: "control", body: delivery(eventId, healthy.id) },
    ]);
    // A failed attempt like any other: retried while tries are left, then given up.
    expect(first.explicitAcks.toSorted()).toEqual(["control", "euro"]);
    expect(first.retryMessages).toMatchObject([{ msgId: "crlf" }]);
    expect(
      await consume([{ id: "crlf", body: delivery(eventId, crlf.id), attempts: 2 }]),
    ).toMatchObject({ explicitAcks: ["crlf"], retryMessages: [] });
    const crlfLog = await deliveries(crlf.id, ws);
    expect(crlfLog.map((d) => d.attempt).sort()).toEqual([1, 2]);
    for (const d of crlfLog) {
      expect(d).toMatchObject({ kind: "http", success: false, status_code: null });
      expect(d.error).toBe("request not sent: header X-Token has a value that cannot be sent");
    }
    expect(await deliveries(euro.id, ws)).toMatchObject([
      {
        attempt: 1,
        success: false,
        error: "request not sent: header X-Price has a value that cannot be sent",
      },
    ]);
    expect(callsTo("/control-ok")).toHaveLength(1);
    expect(callsTo("/crlf")).toEqual([]);
    expect(callsTo("/euro")).toEqual([]);
    expect(await deliveries(crlf.id, ws)).toHaveLength(2);
    expect(await deliveries(euro.id, ws)).toHaveLength(1);
    // The same event still reached the webhook that can be delivered.
    expect((await deliveries(healthy.id, ws))[0]).toMatchObject({ success: true });
  });

  it("delivers a webhook with the maximum of parameters and headers", async () => {
    const ws = await createWorkspace();
    const pairs = (prefix: string, value: string) =>
      Array.from({ length: 20 }, (_, i) => ({ name: `${prefix}${i}`, value: `v${i} ${value}` }));
    const hook = await subscribe(
      "/max",
      {
        events: ["customer-created"],
        parameters: pairs("p", "ä&="),
        headers: pairs("X-H", "x".repeat(1000 - 4)),
      },
      ws,
    );
    const [eventId = ""] = await insertEvents(ws.id, "customer-created", 1, { handedOver: true });
    expect(await consume([{ id: "max", body: delivery(eventId, hook.id) }])).toMatchObject({
      explicitAcks: ["max"],
      retryMessages: [],
    });
    const [call] = callsTo("/max");
    if (!call) throw new Error("no call");
    for (let i = 0; i < 20; i++) {
      expect(call.url.searchParams.get(`p${i}`)).toBe(`v${i} ä&=`);
      expect(call.headers.get(`x-h${i}`)).toBe(`v${i} ${"x".repeat(1000 - 4)}`);
    }
    expect((await deliveries(hook.id, ws))[0]).toMatchObject({ success: true });
  });

  it("records the e-mails of many notifying webhooks of one event (statements under D1's limit)", async () => {
    const ws = await createWorkspace();
    const hooks = [];
    for (let i = 0; i < 12; i++)
      hooks.push(
        await subscribe(
          `/notify-${i}`,
          { events: ["customer-created"], send_notification: true, emails: "desk@salon.example" },
          ws,
        ),
      );
    const [eventId = ""] = await insertEvents(ws.id, "customer-created", 1, { handedOver: true });
    // One fan-out mails all twelve (its rows in statements under D1's limit) and is acknowledged.
    expect(await consume([{ id: "notify", body: event(eventId) }])).toMatchObject({
      explicitAcks: ["notify"],
      retryMessages: [],
    });
    for (const hook of hooks) {
      const log = await until(async () => {
        const d = await deliveries(hook.id, ws);
        return d.length >= 2 && d;
      });
      expect(log.map((d) => d.kind).sort()).toEqual(["email", "http"]);
    }
  });

  it("the sweep hands over more than 100 waiting events (ids bound as one parameter)", async () => {
    const ws = await createWorkspace();
    const ids = await insertEvents(ws.id, "customer-created", 130);
    await runSweep();
    const row = await everyShard
      .prepare(
        "select count(*) as n from events where workspace_id = ? and dispatched_at is not null",
      )
      .bind(ws.id)
      .first<{ n: number }>();
    expect(row?.n).toBe(ids.length);
  });

  it("retries a message it cannot handle for now (D1 unreachable), an event and a delivery alike", async () => {
    const ws = await createWorkspace();
    const hook = await subscribe("/unreached", { events: ["customer-created"] }, ws);
    const [eventId = ""] = await insertEvents(ws.id, "customer-created", 1, { handedOver: true });
    const result = await consume(
      [
        { id: "event", body: event(eventId) },
        { id: "delivery", body: delivery(eventId, hook.id) },
      ],
      { ...env, DB: failingD1() },
    );
    expect(result.explicitAcks).toEqual([]);
    expect(result.retryMessages.map((m) => m.msgId).toSorted()).toEqual(["delivery", "event"]);
    expect(callsTo("/unreached")).toEqual([]);
    expect(await deliveries(hook.id, ws)).toEqual([]);
  });

  it("an attempt never throws: a request that cannot be made, or a fetch that throws, is a failed attempt", async () => {
    const ws = await createWorkspace();
    const made = await subscribe("/direct", { events: ["customer-created"] }, ws);
    const home = createDb((await shardOf(ws.id)).db);
    const hook = await findWebhook({ db: home, workspaceId: ws.id }, made.id);
    if (!hook) throw new Error("no webhook");
    const envelope = {
      id: "evt_direct",
      type: "customer-created",
      created_at: "",
      workspace: ws.id,
      data: {},
    };
    for (const value of ["abc\r\nX-Injected: 1", "a\u0000b", "5 €"]) {
      const result = await attemptDelivery(
        { ...hook, headers: [{ name: "X-Token", value }] },
        envelope,
        true,
      );
      expect(result).toEqual({
        statusCode: null,
        success: false,
        error: "request not sent: header X-Token has a value that cannot be sent",
        durationMs: 0,
        retryAfterSeconds: null,
      });
    }
    expect(await attemptDelivery({ ...hook, url: "not a url" }, envelope, true)).toMatchObject({
      success: false,
      error: expect.stringMatching(/^request not sent: /),
    });
    expect(callsTo("/direct")).toEqual([]);
    respond = () => {
      throw new TypeError("network down");
    };
    expect(await attemptDelivery(hook, envelope, true)).toMatchObject({
      statusCode: null,
      success: false,
      error: "network down",
    });
    expect(callsTo("/direct")).toHaveLength(1);
  });
});

async function setHeaders(webhookId: number, headers: { name: string; value: string }[]) {
  await everyShard
    .prepare("update webhooks set headers = ? where id = ?")
    .bind(JSON.stringify(headers), webhookId)
    .run();
}

async function runSweep() {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ cron: "* * * * *" }), env, ctx);
  await waitOnExecutionContext(ctx);
}
