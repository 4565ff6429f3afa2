import { describe, expect, it } from "vitest";
import { payCheckout, scheduleExpiry } from "../../../tools/stripe-local/checkout";
import type { Ctx } from "../../../tools/stripe-local/context";
import { NO_REQUEST } from "../../../tools/stripe-local/events";
import type { CheckoutSession } from "../../../tools/stripe-local/objects";
import { State } from "../../../tools/stripe-local/state";
import { Outbox } from "../../../tools/stripe-local/webhooks-out";

/** An open setup session of workspace `ws` expiring `inMs` from now. */
function openSession(ctx: Ctx, ws: string, inMs: number): CheckoutSession {
  const session = ctx.state.put<CheckoutSession>({
    id: `cs_test_${ws}`,
    object: "checkout.session",
    amount_subtotal: null,
    amount_total: null,
    automatic_tax: { enabled: false, status: null },
    cancel_url: "https://c.test",
    client_reference_id: null,
    created: Math.floor(Date.now() / 1000),
    currency: null,
    customer: null,
    expires_at: (Date.now() + inMs) / 1000,
    livemode: false,
    metadata: { workspace_id: ws },
    mode: "setup",
    payment_intent: null,
    payment_method_types: ["card"],
    payment_status: "no_payment_required",
    setup_intent: null,
    shipping_options: [],
    status: "open",
    success_url: "https://s.test",
    url: "http://fake/c/pay/x",
  });
  ctx.state.sessionExtras.set(session.id, {
    lineItem: null,
    paymentIntentData: { setupFutureUsage: null, metadata: {} },
    timer: null,
  });
  return session;
}

describe("stripe-local session expiry", () => {
  it("expires an open session by itself at expires_at, with checkout.session.expired", async () => {
    const outbox = new Outbox({ secret: "whsec_x" });
    const ctx: Ctx = { state: new State(), outbox, baseUrl: "http://fake", request: NO_REQUEST };
    const session = openSession(ctx, "ws-timer", 50);
    scheduleExpiry(ctx, session);
    expect(ctx.state.session(session.id)?.status).toBe("open");
    await expect
      .poll(() => ctx.state.session(session.id)?.status, { timeout: 2000 })
      .toBe("expired");
    expect(outbox.take("ws-timer").map((d) => d.type)).toEqual(["checkout.session.expired"]);
  });

  it("does not expire a session completed before its time", async () => {
    const outbox = new Outbox({ secret: "whsec_x" });
    const ctx: Ctx = { state: new State(), outbox, baseUrl: "http://fake", request: NO_REQUEST };
    const session = openSession(ctx, "ws-done", 80);
    scheduleExpiry(ctx, session);
    expect(payCheckout(ctx, session.id, { number: "4242424242424242" }).status).toBe("complete");
    await new Promise((r) => setTimeout(r, 200));
    expect(ctx.state.session(session.id)?.status).toBe("complete");
    expect(outbox.take("ws-done").map((d) => d.type)).toEqual(["checkout.session.completed"]);
  });
});
