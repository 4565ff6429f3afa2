import type Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StripeLocal } from "../../../tools/stripe-local/server";
import { control, deliveries, pay, paymentSession, startFake } from "./fake";

let server: StripeLocal;
let stripe: Stripe;
beforeAll(async () => {
  ({ server, stripe } = await startFake());
});
afterAll(() => server.close());

/** A 4242 card saved on the hosted page: it pays off-session unless a fault says otherwise. */
async function savedCard(ws: string) {
  const c = await stripe.customers.create({ metadata: { workspace_id: ws } });
  const session = await paymentSession(stripe, ws, c.id);
  await pay(server, session.id, "4242424242424242");
  const pi = await stripe.paymentIntents.retrieve(
    (await stripe.checkout.sessions.retrieve(session.id)).payment_intent as string,
  );
  return { customer: c.id, payment_method: pi.payment_method as string };
}

const charge = (card: { customer: string; payment_method: string }, ws: string, key: string) =>
  stripe.paymentIntents
    .create(
      {
        amount: 4900,
        currency: "eur",
        ...card,
        off_session: true,
        confirm: true,
        metadata: { workspace_id: ws },
      },
      { idempotencyKey: key },
    )
    .then(
      (pi) => ({ ok: true as const, pi }),
      (error: unknown) => ({ ok: false as const, error: error as Stripe.errors.StripeCardError }),
    );

describe("the decline fault", () => {
  it("declines the next confirmed charge as card 0341 would, once; the key replays the decline", async () => {
    const ws = "ws-decline-fault";
    const card = await savedCard(ws);
    await control(server, "POST", "/faults", {
      method: "POST",
      path: "/v1/payment_intents",
      when: "decline",
      workspace: ws,
    });
    const declined = await charge(card, ws, "renewal-1");
    expect(declined.ok).toBe(false);
    if (declined.ok) return;
    expect(declined.error).toBeInstanceOf(stripe.errors.StripeCardError);
    expect(declined.error).toMatchObject({
      statusCode: 402,
      code: "card_declined",
      decline_code: "generic_decline",
    });
    expect(declined.error.payment_intent).toMatchObject({
      status: "requires_payment_method",
      last_payment_error: { code: "card_declined" },
    });
    // The same key: the stored decline again, nothing charged or declined anew.
    const replayed = await charge(card, ws, "renewal-1");
    expect(replayed.ok).toBe(false);
    // A new key: the card pays (the fault was used up).
    const paid = await charge(card, ws, "renewal-2");
    expect(paid.ok && paid.pi.status).toBe("succeeded");
    const ledger = await control<{ failed: number; payments: number }>(
      server,
      "GET",
      `/ledger?workspace=${ws}`,
    );
    // The hosted page's payment and the second off-session charge; one decline.
    expect(ledger.body).toMatchObject({ failed: 1, payments: 2 });
    expect((await deliveries(server, ws)).map((d) => d.type)).toContain(
      "payment_intent.payment_failed",
    );
  });

  it("leaves another workspace's charges alone", async () => {
    const card = await savedCard("ws-decline-theirs");
    await control(server, "POST", "/faults", {
      method: "POST",
      path: "/v1/payment_intents",
      when: "decline",
      workspace: "ws-decline-mine",
    });
    const theirs = await charge(card, "ws-decline-theirs", "theirs-1");
    expect(theirs.ok).toBe(true);
  });
});
