import type Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OpenApiCheck } from "../../../tools/stripe-local/openapi-check";
import type { StripeLocal } from "../../../tools/stripe-local/server";
import { control, deliveries, pay, paymentSession, startFake } from "./fake";

let server: StripeLocal;
let stripe: Stripe;
const spec = new OpenApiCheck();
beforeAll(async () => {
  ({ server, stripe } = await startFake());
});
afterAll(() => server.close());

/** The answers as they came over the wire (not stripe-node's objects: they add lastResponse). */
const raw = (value: unknown) => {
  const { lastResponse: _, ...rest } = value as Record<string, unknown>;
  return JSON.parse(JSON.stringify(rest)) as unknown;
};

describe("stripe-local answers match Stripe's published response schemas", () => {
  it("the check itself refuses a wrong object", () => {
    expect(spec.checkObject("customer", { id: "cus_1", object: "customer" })).not.toEqual([]);
    expect(
      spec.checkObject("refund", {
        id: "re_1",
        object: "refund",
        amount: "12",
        created: 1,
        currency: "eur",
      }),
    ).toEqual(["/amount must be integer"]);
  });

  it("every object type, in each state the fake renders", async () => {
    const ws = "ws-spec";
    const checks: [string, unknown][] = [];
    const customer = await stripe.customers.create({
      email: "a@b.c",
      metadata: { workspace_id: ws },
    });
    checks.push(["customer", customer]);
    const open = await paymentSession(stripe, ws, customer.id);
    checks.push(["checkout.session", open]);
    await pay(server, open.id, "4000000000000341");
    const paid = await stripe.checkout.sessions.retrieve(open.id, { expand: ["payment_intent"] });
    checks.push(["checkout.session", paid], ["payment_intent", paid.payment_intent]);
    const pi = paid.payment_intent as Stripe.PaymentIntent;
    const failed = await stripe.paymentIntents
      .create({
        amount: 900,
        currency: "eur",
        customer: customer.id,
        payment_method: pi.payment_method as string,
        off_session: true,
        confirm: true,
        metadata: { workspace_id: ws },
      })
      .then(
        () => null,
        (e: { raw: { payment_intent: unknown } }) => e.raw.payment_intent,
      );
    expect(failed).not.toBeNull();
    checks.push(["payment_intent", failed]);
    checks.push(["refund", await stripe.refunds.create({ payment_intent: pi.id, amount: 100 })]);
    const setup = await stripe.checkout.sessions.create({
      mode: "setup",
      customer: customer.id,
      success_url: "https://s.test",
      cancel_url: "https://c.test",
      metadata: { workspace_id: ws },
    });
    await pay(server, setup.id, "4242424242424242");
    checks.push(["setup_intent", await stripe.setupIntents.retrieve(setup.setup_intent as string)]);
    const expired = await stripe.checkout.sessions.expire((await paymentSession(stripe, ws)).id);
    checks.push(["checkout.session", expired]);
    const events = await deliveries(server, ws);
    for (const d of events) {
      const event = JSON.parse(d.payload) as { type: string; data: { object: { object: string } } };
      checks.push(["event", event], [event.data.object.object, event.data.object]);
    }
    expect(new Set(checks.map(([name]) => name))).toEqual(
      new Set([
        "customer",
        "checkout.session",
        "payment_intent",
        "refund",
        "setup_intent",
        "event",
        "charge",
      ]),
    );
    const problems = checks.flatMap(([name, value]) =>
      spec.checkObject(name, raw(value)).map((p) => `${name}: ${p}`),
    );
    expect(problems).toEqual([]);
  });

  it("error bodies match the spec's error schema", async () => {
    const res = await fetch(`${server.url}/v1/customers`, {
      method: "POST",
      headers: { authorization: "Bearer sk_test_unit" },
      body: "nope=1",
    });
    expect(spec.checkObject("error", await res.json())).toEqual([]);
    const missing = await control<unknown>(server, "GET", "/ledger?workspace=none");
    expect(missing.status).toBe(200);
  });
});
