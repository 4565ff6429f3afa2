import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StripeLocal } from "../../../tools/stripe-local/server";
import { client, control, deliveries, pay, paymentSession, SECRET, startFake } from "./fake";

let server: StripeLocal;
let stripe: Stripe;
beforeAll(async () => {
  ({ server, stripe } = await startFake());
});
afterAll(() => server.close());

/** A raw form POST, as stripe-node would send it, with an Idempotency-Key. */
const post = (path: string, form: string, key?: string) =>
  fetch(`${server.url}${path}`, {
    method: "POST",
    headers: {
      authorization: "Bearer sk_test_unit",
      "content-type": "application/x-www-form-urlencoded",
      ...(key ? { "idempotency-key": key } : {}),
    },
    body: form,
  });

describe("stripe-local idempotency keys", () => {
  it("replays the stored answer for the same key and params, with Idempotent-Replayed", async () => {
    const form = "email=a%40b.c&metadata[workspace_id]=ws-idem";
    const first = await post("/v1/customers", form, "key-1");
    const second = await post("/v1/customers", form, "key-1");
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    expect(await second.json()).toEqual(await first.json());
    const requests = (
      await control<{ replayed: boolean }[]>(server, "GET", "/requests?workspace=ws-idem")
    ).body;
    expect(requests.map((r) => r.replayed)).toEqual([false, true]);
  });

  it("refuses the same key with other params (400 idempotency_error), through the stripe package too", async () => {
    await post("/v1/customers", "email=a%40b.c", "key-2");
    const other = await post("/v1/customers", "email=other%40b.c", "key-2");
    expect(other.status).toBe(400);
    expect(((await other.json()) as { error: { type: string } }).error.type).toBe(
      "idempotency_error",
    );
    await stripe.customers.create({ email: "x@y.z" }, { idempotencyKey: "key-3" });
    await expect(
      stripe.customers.create({ email: "q@y.z" }, { idempotencyKey: "key-3" }),
    ).rejects.toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
  });

  it("answers 409 to the same key while the first request is still running", async () => {
    await control(server, "POST", "/faults", {
      method: "POST",
      path: "/v1/customers",
      when: "delay",
      delayMs: 300,
    });
    const slow = post("/v1/customers", "email=slow%40b.c", "key-4");
    await new Promise((r) => setTimeout(r, 50));
    const during = await post("/v1/customers", "email=slow%40b.c", "key-4");
    expect(during.status).toBe(409);
    expect((await slow).status).toBe(200);
    const after = await post("/v1/customers", "email=slow%40b.c", "key-4");
    expect(after.headers.get("idempotent-replayed")).toBe("true");
  });
});

describe("stripe-local faults", () => {
  it("a fault for one workspace leaves another workspace's requests alone", async () => {
    await control(server, "POST", "/faults", {
      method: "POST",
      path: "/v1/customers",
      when: "before",
      workspace: "ws-fault-mine",
    });
    const theirs = await post("/v1/customers", "metadata[workspace_id]=ws-fault-theirs");
    expect(theirs.status).toBe(200);
    const mine = await post("/v1/customers", "metadata[workspace_id]=ws-fault-mine");
    expect(mine.status).toBe(500);
    const again = await post("/v1/customers", "metadata[workspace_id]=ws-fault-mine");
    expect(again.status).toBe(200);
  });

  it("before: a 500 without acting; the retry with the same key acts once", async () => {
    await control(server, "POST", "/faults", {
      method: "POST",
      path: "/v1/payment_intents",
      when: "before",
    });
    const form = "amount=700&currency=eur&metadata[workspace_id]=ws-fault-before";
    const failed = await post("/v1/payment_intents", form, "key-5");
    expect(failed.status).toBe(500);
    expect(((await failed.json()) as { error: { type: string } }).error.type).toBe("api_error");
    const retried = await post("/v1/payment_intents", form, "key-5");
    expect(retried.status).toBe(200);
    expect(retried.headers.get("idempotent-replayed")).toBeNull();
  });

  it("after: acts and keeps the answer, answers 500; stripe-node's automatic retry gets the stored answer", async () => {
    const session = await paymentSession(stripe, "ws-fault-after");
    await pay(server, session.id, "4242424242424242");
    const pi = (await stripe.checkout.sessions.retrieve(session.id)).payment_intent as string;
    await control(server, "POST", "/faults", {
      method: "POST",
      path: "/v1/refunds",
      when: "after",
    });
    const retrying = client(server, 2);
    const refund = await retrying.refunds.create({ payment_intent: pi, amount: 300 });
    expect(refund.amount).toBe(300);
    const ledger = await control<{ refunded: number; refunds: number }>(
      server,
      "GET",
      "/ledger?workspace=ws-fault-after",
    );
    expect(ledger.body).toMatchObject({ refunded: 300, refunds: 1 });
    const requests = (
      await control<{ path: string; status: number; replayed: boolean; idempotency_key: string }[]>(
        server,
        "GET",
        "/requests?workspace=ws-fault-after",
      )
    ).body.filter((r) => r.path === "/v1/refunds");
    expect(requests.map((r) => [r.status, r.replayed])).toEqual([
      [500, false],
      [200, true],
    ]);
    expect(requests[0]?.idempotency_key).toBe(requests[1]?.idempotency_key);
  });
});

describe("stripe-local request checks (Stripe's OpenAPI description)", () => {
  it("refuses an unknown parameter, at any depth, as Stripe does, and records the violation", async () => {
    const unknown = await stripe.customers
      .create({
        email: "a@b.c",
        metadata: { workspace_id: "ws-check" },
        colour: "red",
      } as Stripe.CustomerCreateParams)
      .catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(unknown).toMatchObject({
      code: "parameter_unknown",
      param: "colour",
      message: "Received unknown parameter: colour",
    });
    const nested = await post(
      "/v1/checkout/sessions",
      "mode=payment&success_url=https://s&cancel_url=https://c&line_items[0][price_data][colour]=red",
    );
    expect(await nested.json()).toMatchObject({
      error: { code: "parameter_unknown", param: "line_items[0][price_data][colour]" },
    });
    const requests = (
      await control<{ violation: string | null }[]>(server, "GET", "/requests?workspace=ws-check")
    ).body;
    expect(requests.map((r) => r.violation)).toEqual(["Received unknown parameter: colour"]);
  });

  it("refuses a missing required param and a wrongly typed one", async () => {
    const missing = await post("/v1/payment_intents", "currency=eur");
    expect(await missing.json()).toMatchObject({
      error: { code: "parameter_missing", param: "amount" },
    });
    const wrong = await post("/v1/payment_intents", "amount=twelve&currency=eur");
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({
      error: { code: "parameter_invalid_integer", param: "amount" },
    });
  });

  it("wants a test secret key as a Bearer token", async () => {
    const res = await fetch(`${server.url}/v1/customers`, { method: "POST", body: "email=a" });
    expect(res.status).toBe(401);
  });
});

describe("stripe-local events", () => {
  it("signs deliveries so that stripe.webhooks.constructEventAsync accepts them, and not a tampered one", async () => {
    const session = await paymentSession(stripe, "ws-sign");
    await pay(server, session.id, "4242424242424242");
    const taken = await deliveries(server, "ws-sign");
    expect(taken.length).toBe(2);
    for (const d of taken) {
      const event = await stripe.webhooks.constructEventAsync(d.payload, d.signature, SECRET);
      expect(event).toMatchObject({ id: d.id, type: d.type, object: "event", livemode: false });
    }
    const completed = await stripe.webhooks.constructEventAsync(
      taken[1]?.payload ?? "",
      taken[1]?.signature ?? "",
      SECRET,
    );
    expect(completed.data.object).toMatchObject({
      id: session.id,
      status: "complete",
      metadata: { workspace_id: "ws-sign" },
    });
    const tampered = (taken[1]?.payload ?? "").replace('"complete"', '"expired"');
    await expect(
      stripe.webhooks.constructEventAsync(tampered, taken[1]?.signature ?? "", SECRET),
    ).rejects.toBeInstanceOf(Stripe.errors.StripeSignatureVerificationError);
    // Taken once: a second call has nothing new.
    expect(await deliveries(server, "ws-sign")).toEqual([]);
  });

  it("POSTs events to a webhook URL, retrying a failed delivery", async () => {
    const received: { signature: string; body: string }[] = [];
    let refuse = 1;
    const hook = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        if (refuse-- > 0) return res.writeHead(503).end();
        received.push({ signature: String(req.headers["stripe-signature"]), body });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => hook.listen(0, "127.0.0.1", r));
    const { port } = hook.address() as AddressInfo;
    const pushing = await startFake({
      webhookUrl: `http://127.0.0.1:${port}/hook`,
      retryDelaysMs: [50, 50],
    });
    try {
      const session = await pushing.stripe.checkout.sessions.create({
        mode: "setup",
        success_url: "https://s.test",
        cancel_url: "https://c.test",
        metadata: { workspace_id: "ws-push" },
      });
      await pushing.stripe.checkout.sessions.expire(session.id);
      await expect.poll(() => received.length, { timeout: 3000 }).toBe(1);
      const event = await stripe.webhooks.constructEventAsync(
        received[0]?.body ?? "",
        received[0]?.signature ?? "",
        SECRET,
      );
      expect(event.type).toBe("checkout.session.expired");
      expect(pushing.server.outbox.attempts.map((a) => a.status)).toEqual([503, 200]);
    } finally {
      await pushing.server.close();
      hook.close();
    }
  });
});
