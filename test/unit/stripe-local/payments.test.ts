import type Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StripeLocal } from "../../../tools/stripe-local/server";
import { deliveries, inAnHour, pay, paymentSession, startFake } from "./fake";

let server: StripeLocal;
let stripe: Stripe;
beforeAll(async () => {
  ({ server, stripe } = await startFake());
});
afterAll(() => server.close());

const customer = (ws: string) =>
  stripe.customers.create({
    email: "ada@example.com",
    name: "Ada",
    metadata: { workspace_id: ws },
  });

describe("stripe-local through the stripe package", () => {
  it("creates a customer that keeps its metadata", async () => {
    const c = await customer("ws-cus");
    expect(c.id).toMatch(/^cus_/);
    expect(c).toMatchObject({
      object: "customer",
      email: "ada@example.com",
      metadata: { workspace_id: "ws-cus" },
    });
  });

  it("opens a payment session, pays it with 4242 and reports the paid intent (expanded)", async () => {
    const c = await customer("ws-pay");
    const session = await paymentSession(stripe, "ws-pay", c.id);
    expect(session).toMatchObject({
      object: "checkout.session",
      mode: "payment",
      status: "open",
      payment_status: "unpaid",
      payment_intent: null,
      amount_total: 1200,
      currency: "eur",
      client_reference_id: "b-1",
      url: `${server.url}/c/pay/${session.id}`,
      livemode: false,
    });
    expect(session.id).toMatch(/^cs_test_/);
    const paid = await pay(server, session.id, "4242 4242 4242 4242");
    expect(paid.body).toEqual({
      status: "complete",
      redirect: `https://salon.test/paid?session=${session.id}`,
    });
    const after = await stripe.checkout.sessions.retrieve(session.id, {
      expand: ["payment_intent"],
    });
    expect(after).toMatchObject({ status: "complete", payment_status: "paid" });
    const pi = after.payment_intent as Stripe.PaymentIntent;
    expect(pi).toMatchObject({
      object: "payment_intent",
      status: "succeeded",
      amount: 1200,
      customer: c.id,
      metadata: { workspace_id: "ws-pay", booking_uuid: "b-1" },
    });
    expect(pi.latest_charge).toMatch(/^ch_/);
    expect(await stripe.paymentIntents.retrieve(pi.id)).toMatchObject({
      id: pi.id,
      status: "succeeded",
    });
    const deep = await stripe.checkout.sessions.retrieve(session.id, {
      expand: ["payment_intent.latest_charge"],
    });
    const charge = (deep.payment_intent as Stripe.PaymentIntent).latest_charge as Stripe.Charge;
    expect(charge).toMatchObject({
      object: "charge",
      amount: 1200,
      paid: true,
      payment_intent: pi.id,
    });
    const types = (await deliveries(server, "ws-pay")).map((d) => d.type);
    expect(types).toEqual(["payment_intent.succeeded", "checkout.session.completed"]);
  });

  it("keeps a session open on a declined card, and refuses an incorrect number", async () => {
    const session = await paymentSession(stripe, "ws-decline");
    expect((await pay(server, session.id, "4000000000000002")).body.status).toBe("declined");
    expect((await pay(server, session.id, "1234123412341234")).body.status).toBe("incorrect");
    expect(await stripe.checkout.sessions.retrieve(session.id)).toMatchObject({
      status: "open",
      payment_intent: null,
    });
    expect((await deliveries(server, "ws-decline")).map((d) => d.type)).not.toContain(
      "checkout.session.completed",
    );
  });

  it("saves a card in setup mode: the setup intent succeeds with a payment method on the customer", async () => {
    const c = await customer("ws-setup");
    const session = await stripe.checkout.sessions.create({
      mode: "setup",
      customer: c.id,
      setup_intent_data: { metadata: { workspace_id: "ws-setup", reservation_uuid: "r-1" } },
      success_url: "https://salon.test/saved",
      cancel_url: "https://salon.test/back",
      metadata: { workspace_id: "ws-setup" },
    });
    expect(session).toMatchObject({ status: "open", payment_status: "no_payment_required" });
    expect(session.setup_intent).toMatch(/^seti_/);
    expect((await pay(server, session.id, "4242424242424242")).body.status).toBe("complete");
    const si = await stripe.setupIntents.retrieve(session.setup_intent as string);
    expect(si).toMatchObject({
      status: "succeeded",
      customer: c.id,
      metadata: { reservation_uuid: "r-1" },
    });
    expect(si.payment_method).toMatch(/^pm_/);
    const expanded = await stripe.checkout.sessions.retrieve(session.id, {
      expand: ["setup_intent"],
    });
    expect((expanded.setup_intent as Stripe.SetupIntent).id).toBe(si.id);
  });

  it("charges a saved 4242 card off-session, and declines a saved 0341 card with a card_error", async () => {
    const saved = async (card: string, ws: string) => {
      const c = await customer(ws);
      const session = await paymentSession(stripe, ws, c.id);
      await pay(server, session.id, card);
      const pi = await stripe.paymentIntents.retrieve(
        (await stripe.checkout.sessions.retrieve(session.id)).payment_intent as string,
      );
      return { customer: c.id, paymentMethod: pi.payment_method as string };
    };
    const good = await saved("4242424242424242", "ws-off");
    const charge = await stripe.paymentIntents.create({
      amount: 2500,
      currency: "eur",
      customer: good.customer,
      payment_method: good.paymentMethod,
      off_session: true,
      confirm: true,
      description: "No-show fee",
      metadata: { workspace_id: "ws-off", booking_uuid: "b-2" },
    });
    expect(charge).toMatchObject({ status: "succeeded", amount: 2500, amount_received: 2500 });
    expect(charge.latest_charge).toMatch(/^ch_/);

    const bad = await saved("4000000000000341", "ws-off-fail");
    const error = await stripe.paymentIntents
      .create({
        amount: 2500,
        currency: "eur",
        customer: bad.customer,
        payment_method: bad.paymentMethod,
        off_session: true,
        confirm: true,
        metadata: { workspace_id: "ws-off-fail" },
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(stripe.errors.StripeCardError);
    const cardError = error as Stripe.errors.StripeCardError;
    expect(cardError).toMatchObject({
      statusCode: 402,
      code: "card_declined",
      decline_code: "generic_decline",
    });
    expect(cardError.payment_intent).toMatchObject({
      status: "requires_payment_method",
      last_payment_error: { code: "card_declined", decline_code: "generic_decline" },
    });
    const ledger = await fetch(`${server.url}/_local/ledger?workspace=ws-off-fail`).then((r) =>
      r.json(),
    );
    expect(ledger).toMatchObject({ charged: 1200, failed: 1 });
    expect((await deliveries(server, "ws-off-fail")).map((d) => d.type)).toContain(
      "payment_intent.payment_failed",
    );
  });

  it("refunds part, then the rest, refuses more than remains, and sends charge.refunded with the intent's metadata", async () => {
    const session = await paymentSession(stripe, "ws-refund");
    await pay(server, session.id, "4242424242424242");
    const pi = (await stripe.checkout.sessions.retrieve(session.id)).payment_intent as string;
    await deliveries(server, "ws-refund");
    const part = await stripe.refunds.create({
      payment_intent: pi,
      amount: 500,
      metadata: { workspace_id: "ws-refund" },
    });
    expect(part).toMatchObject({
      object: "refund",
      amount: 500,
      status: "succeeded",
      payment_intent: pi,
    });
    expect(await stripe.refunds.retrieve(part.id)).toMatchObject({ id: part.id, amount: 500 });
    const tooMuch = await stripe.refunds
      .create({ payment_intent: pi, amount: 701 })
      .catch((e: unknown) => e);
    expect(tooMuch).toBeInstanceOf(stripe.errors.StripeInvalidRequestError);
    expect(tooMuch).toMatchObject({ statusCode: 400, param: "amount" });
    const rest = await stripe.refunds.create({ payment_intent: pi });
    expect(rest.amount).toBe(700);
    const events = await deliveries(server, "ws-refund");
    expect(events.map((e) => e.type)).toEqual(["charge.refunded", "charge.refunded"]);
    const last = JSON.parse(events[1]?.payload ?? "{}") as { data: { object: Stripe.Charge } };
    expect(last.data.object).toMatchObject({
      amount_refunded: 1200,
      refunded: true,
      metadata: { workspace_id: "ws-refund", booking_uuid: "b-1" },
    });
    expect(last.data.object.refunds?.data.map((r) => r.amount)).toEqual([700, 500]);
    const dashboard = await fetch(`${server.url}/_local/dashboard-refund`, {
      method: "POST",
      body: JSON.stringify({ payment_intent: pi, amount: 1 }),
    });
    expect(dashboard.status).toBe(400);
  });

  it("expires an open session (POST …/expire) once, with checkout.session.expired", async () => {
    const session = await paymentSession(stripe, "ws-expire");
    const expired = await stripe.checkout.sessions.expire(session.id);
    expect(expired.status).toBe("expired");
    const again = await stripe.checkout.sessions.expire(session.id).catch((e: unknown) => e);
    expect(again).toMatchObject({ statusCode: 400 });
    expect((await deliveries(server, "ws-expire")).map((d) => d.type)).toEqual([
      "checkout.session.expired",
    ]);
    expect((await pay(server, session.id, "4242424242424242")).body.status).toBe("expired");
  });

  it("refuses expires_at under 30 minutes or over 24 hours ahead", async () => {
    const base = {
      mode: "setup" as const,
      success_url: "https://salon.test/s",
      cancel_url: "https://salon.test/c",
    };
    const now = Math.floor(Date.now() / 1000);
    for (const expires_at of [now + 600, now + 25 * 3600]) {
      await expect(stripe.checkout.sessions.create({ ...base, expires_at })).rejects.toMatchObject({
        statusCode: 400,
        param: "expires_at",
      });
    }
    await expect(
      stripe.checkout.sessions.create({ ...base, expires_at: inAnHour() }),
    ).resolves.toMatchObject({
      status: "open",
    });
  });

  it("answers Stripe's 404 for an unknown object and for an operation it does not serve", async () => {
    await expect(stripe.paymentIntents.retrieve("pi_nope")).rejects.toMatchObject({
      statusCode: 404,
      code: "resource_missing",
    });
    await expect(stripe.charges.list()).rejects.toMatchObject({
      statusCode: 404,
      type: "StripeInvalidRequestError",
    });
  });
});
