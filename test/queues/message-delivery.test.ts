import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createDb } from "../../src/db/client";
import { leaseMessage } from "../../src/messages/queries/message-delivery";
import {
  deliverCustomerMessage,
  LEASE_MS,
  MAX_ATTEMPTS,
} from "../../src/messages/delivery/deliver";
import type { Env } from "../../src/platform/env";
import { createWorkspace } from "../helpers/factory";
import {
  consumeMessages,
  insertMessage,
  messageBody,
  readMessage,
  setNotificationSettings,
} from "../helpers/messages";
import { everyShard, shardOf } from "../helpers/every-shard";

/** Requests the Worker makes to the providers, captured by an in-test fake of each API. */
interface Call {
  url: URL;
  method: string;
  headers: Headers;
  body: string;
}

const RESEND = "https://resend.fake";
const TWILIO = "https://twilio.fake";
let calls: Call[] = [];
let respond: (call: Call) => Promise<Response> | Response;

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });

beforeEach(() => {
  calls = [];
  respond = (call) =>
    call.url.origin === RESEND
      ? json(200, { id: "re_email_1" })
      : json(201, { sid: "SM0123456789abcdef", status: "queued" });
  const real = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    if (!request.url.startsWith(RESEND) && !request.url.startsWith(TWILIO)) {
      return real(input, init);
    }
    const call = {
      url: new URL(request.url),
      method: request.method,
      headers: request.headers,
      body: await request.text(),
    };
    calls.push(call);
    return respond(call);
  });
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** The Worker's bindings with both providers configured against the fakes, and no backoff. */
const configured = (extra: Record<string, string> = {}): Env =>
  ({
    ...env,
    RESEND_API_KEY: "re_test_key_123",
    RESEND_BASE_URL: RESEND,
    EMAIL_FROM: "bookings@platform.example",
    TWILIO_ACCOUNT_SID: "AC0123456789",
    TWILIO_AUTH_TOKEN: "twilio-auth-token",
    TWILIO_BASE_URL: TWILIO,
    TWILIO_FROM: "+15005550006",
    TWILIO_MESSAGING_SERVICE_SID: "",
    MESSAGE_RETRY_BASE_SECONDS: "0",
    ...extra,
  }) as Env;

async function deliver(workspaceId: string, id: string, bindings: Env = configured()) {
  return consumeMessages([{ id: `q-${id}`, body: messageBody(id, workspaceId) }], bindings);
}

/**
 * One delivery's own account of itself (the queue result does not report a
 * retry's delay): when it asks the queue to bring the message back.
 */
async function delayOf(workspaceId: string, id: string, bindings: Env = configured()) {
  const delivery = await deliverCustomerMessage(bindings, { messageId: id, workspaceId });
  return delivery.outcome === "done" ? null : delivery.delaySeconds;
}

describe("the log provider (nothing configured)", () => {
  it("records the message as sent by `log` and calls nobody", async () => {
    const ws = await createWorkspace();
    const id = await insertMessage(ws.id);
    const before = Date.now();
    const outcome = await deliver(ws.id, id, env);
    expect(outcome.explicitAcks).toEqual([`q-${id}`]);
    expect(calls).toEqual([]);
    const row = await readMessage(id);
    expect(row).toMatchObject({
      status: "sent",
      provider: "log",
      provider_message_id: null,
      attempts: 1,
      error: null,
      lease_until: null,
    });
    expect(row.sent_at).toBeGreaterThanOrEqual(before);
  });

  it("sends an SMS through `log` too", async () => {
    const ws = await createWorkspace();
    const id = await insertMessage(ws.id, { channel: "sms", to: "+4915112345678", subject: null });
    await deliver(ws.id, id, env);
    expect(await readMessage(id)).toMatchObject({ status: "sent", provider: "log" });
  });
});

describe("Resend (e-mail)", () => {
  it("posts the message as Resend's API takes it, with the workspace's sender", async () => {
    const ws = await createWorkspace();
    await setNotificationSettings(ws.id, {
      email: {
        enabled: true,
        from_name: "Salon Süd, Wien",
        from_email: "hello@salon-sued.example",
        reply_to: "desk@salon-sued.example",
      },
    });
    const id = await insertMessage(ws.id, {
      to: "ada@example.com",
      subject: "Deine Buchung",
      body: "Bis Montag um 10:00.\nhttps://x.example/manage/abc",
    });
    expect((await deliver(ws.id, id)).explicitAcks).toEqual([`q-${id}`]);
    expect(calls).toHaveLength(1);
    const [call] = calls;
    if (!call) throw new Error("no call");
    expect(call.method).toBe("POST");
    expect(call.url.href).toBe(`${RESEND}/emails`);
    expect(call.headers.get("authorization")).toBe("Bearer re_test_key_123");
    expect(call.headers.get("content-type")).toBe("application/json");
    expect(call.headers.get("idempotency-key")).toBe(id);
    expect(JSON.parse(call.body)).toEqual({
      from: '"Salon Süd, Wien" <hello@salon-sued.example>',
      to: ["ada@example.com"],
      subject: "Deine Buchung",
      text: "Bis Montag um 10:00.\nhttps://x.example/manage/abc",
      reply_to: "desk@salon-sued.example",
    });
    expect(await readMessage(id)).toMatchObject({
      status: "sent",
      provider: "resend",
      provider_message_id: "re_email_1",
      attempts: 1,
      error: null,
    });
  });

  it("falls back to EMAIL_FROM when the workspace names no sender", async () => {
    const ws = await createWorkspace();
    const id = await insertMessage(ws.id);
    await deliver(ws.id, id);
    const body = JSON.parse(calls[0]?.body ?? "{}");
    expect(body.from).toBe("bookings@platform.example");
    expect(body).not.toHaveProperty("reply_to");
  });

  it("fails a message Resend refuses (400, 422) at once, with its error", async () => {
    const ws = await createWorkspace();
    for (const status of [400, 422]) {
      respond = () =>
        json(status, { statusCode: status, name: "validation_error", message: "Invalid `to`" });
      const id = await insertMessage(ws.id);
      const outcome = await deliver(ws.id, id);
      expect(outcome.explicitAcks).toEqual([`q-${id}`]);
      expect(outcome.retryMessages).toEqual([]);
      expect(await readMessage(id)).toMatchObject({
        status: "failed",
        provider: "resend",
        attempts: 1,
        error: `resend ${status} validation_error: Invalid \`to\``,
        lease_until: null,
        sent_at: null,
      });
    }
  });

  it("retries 429 and 503, then sends on the next try", async () => {
    const ws = await createWorkspace();
    for (const status of [429, 503]) {
      let n = 0;
      respond = () =>
        n++ === 0
          ? json(status, { statusCode: status, name: "rate_limit_exceeded", message: "slow down" })
          : json(200, { id: "re_after_retry" });
      const id = await insertMessage(ws.id);
      const first = await deliver(ws.id, id);
      expect(first.explicitAcks).toEqual([]);
      expect(first.retryMessages.map((m) => m.msgId)).toEqual([`q-${id}`]);
      expect(await readMessage(id)).toMatchObject({
        status: "scheduled",
        attempts: 1,
        lease_until: null,
        error: `resend ${status} rate_limit_exceeded: slow down`,
      });
      expect((await deliver(ws.id, id)).explicitAcks).toEqual([`q-${id}`]);
      expect(await readMessage(id)).toMatchObject({
        status: "sent",
        attempts: 2,
        error: null,
        provider_message_id: "re_after_retry",
      });
    }
  });

  it("schedules the retry after its backoff, and Retry-After when longer", async () => {
    const ws = await createWorkspace();
    respond = () => json(429, { message: "slow down" }, { "retry-after": "120" });
    const id = await insertMessage(ws.id);
    const before = Date.now();
    expect(await delayOf(ws.id, id, configured({ MESSAGE_RETRY_BASE_SECONDS: "30" }))).toBe(120);
    const row = await readMessage(id);
    expect(row.scheduled_for).toBeGreaterThanOrEqual(before + 120_000);
    // Not due yet: another delivery of it waits instead of sending.
    expect(await delayOf(ws.id, id)).toBeGreaterThan(100);
    expect(calls).toHaveLength(1);
  });

  it("retries a provider that does not answer in time", async () => {
    const ws = await createWorkspace();
    respond = () => Promise.reject(new DOMException("The operation timed out.", "TimeoutError"));
    const id = await insertMessage(ws.id);
    expect((await deliver(ws.id, id)).retryMessages).toHaveLength(1);
    expect(await readMessage(id)).toMatchObject({
      status: "scheduled",
      attempts: 1,
      error: "resend: no answer within 10 s",
    });
  });

  it(`gives up after ${MAX_ATTEMPTS} attempts`, async () => {
    const ws = await createWorkspace();
    respond = () => json(503, { message: "down" });
    const id = await insertMessage(ws.id, { attempts: MAX_ATTEMPTS - 1 });
    const outcome = await deliver(ws.id, id);
    expect(outcome.explicitAcks).toEqual([`q-${id}`]);
    expect(await readMessage(id)).toMatchObject({
      status: "failed",
      attempts: MAX_ATTEMPTS,
      error: "resend 503: down",
    });
  });
});

describe("Twilio (SMS)", () => {
  it("posts the form Twilio's Messages API takes, with Basic auth", async () => {
    const ws = await createWorkspace();
    const id = await insertMessage(ws.id, {
      channel: "sms",
      to: "+4915112345678",
      subject: null,
      body: "Reminder: Mon 10:00 at Salon Süd & Co",
    });
    expect((await deliver(ws.id, id)).explicitAcks).toEqual([`q-${id}`]);
    const [call] = calls;
    if (!call) throw new Error("no call");
    expect(call.method).toBe("POST");
    expect(call.url.href).toBe(`${TWILIO}/2010-04-01/Accounts/AC0123456789/Messages.json`);
    expect(call.headers.get("authorization")).toBe(
      `Basic ${btoa("AC0123456789:twilio-auth-token")}`,
    );
    expect(call.headers.get("content-type")).toBe("application/x-www-form-urlencoded");
    const form = new URLSearchParams(call.body);
    expect([...form.keys()].sort()).toEqual(["Body", "From", "To"]);
    expect(form.get("To")).toBe("+4915112345678");
    expect(form.get("From")).toBe("+15005550006");
    expect(form.get("Body")).toBe("Reminder: Mon 10:00 at Salon Süd & Co");
    expect(await readMessage(id)).toMatchObject({
      status: "sent",
      provider: "twilio",
      provider_message_id: "SM0123456789abcdef",
      attempts: 1,
    });
  });

  it("sends from a messaging service instead of a number when one is configured", async () => {
    const ws = await createWorkspace();
    const id = await insertMessage(ws.id, { channel: "sms", to: "+4915112345678" });
    await deliver(ws.id, id, configured({ TWILIO_MESSAGING_SERVICE_SID: "MG42" }));
    const form = new URLSearchParams(calls[0]?.body);
    expect(form.get("MessagingServiceSid")).toBe("MG42");
    expect(form.has("From")).toBe(false);
  });

  it("fails on Twilio's 400 with its error code, retries 429 and 503", async () => {
    const ws = await createWorkspace();
    respond = () =>
      json(400, {
        code: 21211,
        message: "The 'To' number +49 is not a valid phone number.",
        more_info: "https://www.twilio.com/docs/errors/21211",
        status: 400,
      });
    const refused = await insertMessage(ws.id, { channel: "sms", to: "+49" });
    await deliver(ws.id, refused);
    expect(await readMessage(refused)).toMatchObject({
      status: "failed",
      error: "twilio 400 21211: The 'To' number +49 is not a valid phone number.",
    });
    for (const status of [429, 503]) {
      respond = () => json(status, { code: 20429, message: "Too Many Requests", status });
      const id = await insertMessage(ws.id, { channel: "sms", to: "+4915112345678" });
      expect((await deliver(ws.id, id)).retryMessages).toHaveLength(1);
      expect(await readMessage(id)).toMatchObject({
        status: "scheduled",
        attempts: 1,
        error: `twilio ${status} 20429: Too Many Requests`,
      });
    }
  });
});

describe("exactly once", () => {
  it("two deliveries of one message at the same time send it once", async () => {
    const ws = await createWorkspace();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    respond = async () => {
      await gate;
      return json(200, { id: "re_once" });
    };
    const id = await insertMessage(ws.id);
    // Two queue messages for the same row, in one batch and in a second batch alongside.
    const batch = consumeMessages(
      [
        { id: "dup-1", body: messageBody(id, ws.id) },
        { id: "dup-2", body: messageBody(id, ws.id) },
      ],
      configured(),
    );
    const other = consumeMessages([{ id: "dup-3", body: messageBody(id, ws.id) }], configured());
    await new Promise((r) => setTimeout(r, 100));
    release();
    const outcomes = await Promise.all([batch, other]);
    expect(calls).toHaveLength(1);
    const acked = outcomes.flatMap((o) => o.explicitAcks);
    const retried = outcomes.flatMap((o) => o.retryMessages);
    // The one that sent acknowledges; the others look again later.
    expect(acked).toHaveLength(1);
    expect(retried).toHaveLength(2);
    expect(await readMessage(id)).toMatchObject({ status: "sent", attempts: 1 });
    // Their retries find it sent and acknowledge without sending.
    const later = await consumeMessages(
      retried.map((r) => ({ id: r.msgId, body: messageBody(id, ws.id), attempts: 2 })),
      configured(),
    );
    expect(later.explicitAcks.sort()).toEqual(retried.map((r) => r.msgId).sort());
    expect(calls).toHaveLength(1);
  });

  it("a delivery that died after its claim leaves the message to the next one once its lease ends", async () => {
    const ws = await createWorkspace();
    const id = await insertMessage(ws.id);
    // The lease is a compare-and-set on the workspace's own shard, as a delivery takes it.
    const db = createDb((await shardOf(ws.id)).db);
    const now = Date.now();
    // The dead worker: claimed, never sent, never recorded.
    const claimed = await leaseMessage(db, {
      id,
      workspaceId: ws.id,
      now,
      leaseUntil: now + LEASE_MS,
    });
    expect(claimed?.id).toBe(id);
    // While its lease runs nobody sends it.
    const during = await deliver(ws.id, id);
    expect(calls).toHaveLength(0);
    expect(during.retryMessages).toHaveLength(1);
    expect(await delayOf(ws.id, id)).toBeGreaterThan(LEASE_MS / 1000 - 5);
    // The lease ends (moved into the past rather than waited for).
    await everyShard
      .prepare("update messages set lease_until = ? where id = ?")
      .bind(Date.now() - 1, id)
      .run();
    expect((await deliver(ws.id, id)).explicitAcks).toEqual([`q-${id}`]);
    expect(calls).toHaveLength(1);
    expect(await readMessage(id)).toMatchObject({ status: "sent", attempts: 1, lease_until: null });
  });

  it("an outcome is recorded only under the delivery's own lease", async () => {
    const ws = await createWorkspace();
    const id = await insertMessage(ws.id);
    // A slow send: while it is out, its lease passes and another delivery takes the message.
    respond = async () => {
      await everyShard
        .prepare("update messages set lease_until = ? where id = ?")
        .bind(Date.now() + LEASE_MS * 2, id)
        .run();
      return json(200, { id: "re_late" });
    };
    await deliver(ws.id, id);
    // The first delivery's "sent" did not overwrite the other's claim.
    expect(await readMessage(id)).toMatchObject({ status: "scheduled", provider: null });
  });

  it("leaves settled messages alone (sent, canceled, skipped, failed)", async () => {
    const ws = await createWorkspace();
    for (const status of ["sent", "canceled", "skipped", "failed"]) {
      const id = await insertMessage(ws.id, { status });
      expect((await deliver(ws.id, id)).explicitAcks).toEqual([`q-${id}`]);
    }
    expect(calls).toEqual([]);
  });

  it("waits for a message not due yet, and leaves one beyond a queue's reach to the clock", async () => {
    const ws = await createWorkspace();
    const soon = await insertMessage(ws.id, { scheduled_for: Date.now() + 600_000 });
    expect((await deliver(ws.id, soon)).retryMessages).toHaveLength(1);
    expect(await delayOf(ws.id, soon)).toBeGreaterThan(590);
    const far = await insertMessage(ws.id, { scheduled_for: Date.now() + 13 * 3600_000 });
    expect((await deliver(ws.id, far)).explicitAcks).toEqual([`q-${far}`]);
    expect(calls).toEqual([]);
    expect((await readMessage(far)).status).toBe("scheduled");
  });
});

describe("tenancy", () => {
  it("each message goes out with its own workspace's sender", async () => {
    const a = await createWorkspace();
    const b = await createWorkspace();
    await setNotificationSettings(a.id, {
      email: { enabled: true, from_name: "Salon A", from_email: "a@a.example" },
    });
    await setNotificationSettings(b.id, {
      email: { enabled: true, from_name: "Salon B", from_email: "b@b.example", reply_to: "r@b" },
    });
    const ma = await insertMessage(a.id, { to: "x@example.com" });
    const mb = await insertMessage(b.id, { to: "y@example.com" });
    await consumeMessages(
      [{ body: messageBody(ma, a.id) }, { body: messageBody(mb, b.id) }],
      configured(),
    );
    const byTo = Object.fromEntries(
      calls.map((c) => {
        const body = JSON.parse(c.body);
        return [body.to[0], body];
      }),
    );
    expect(byTo["x@example.com"].from).toBe("Salon A <a@a.example>");
    expect(byTo["x@example.com"]).not.toHaveProperty("reply_to");
    expect(byTo["y@example.com"].from).toBe("Salon B <b@b.example>");
    expect(byTo["y@example.com"].reply_to).toBe("r@b");
  });

  it("a queue message naming another workspace sends nothing", async () => {
    const a = await createWorkspace();
    const b = await createWorkspace();
    const mb = await insertMessage(b.id);
    const outcome = await consumeMessages(
      [{ id: "forged", body: messageBody(mb, a.id) }],
      configured(),
    );
    expect(outcome.explicitAcks).toEqual(["forged"]);
    expect(calls).toEqual([]);
    expect(await readMessage(mb)).toMatchObject({ status: "scheduled", attempts: 0 });
  });
});
