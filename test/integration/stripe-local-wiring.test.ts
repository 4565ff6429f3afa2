import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { stripeBase, stripeDeliveries, stripeLedger, stripeRequests } from "../helpers/stripe";

/**
 * The Worker under test is bound to stripe-local (vitest.config.ts, test/setup/stripe-server.ts):
 * its STRIPE_API_BASE is the server the helpers drive, reachable from inside workerd.
 */
const bindings = env as unknown as Record<string, string | undefined>;

describe("stripe-local wiring", () => {
  it("binds STRIPE_API_BASE, a test secret key and a webhook secret to the server the helpers drive", () => {
    expect(bindings.STRIPE_API_BASE).toBe(stripeBase());
    expect(bindings.STRIPE_SECRET_KEY).toMatch(/^sk_test_/);
    expect(bindings.STRIPE_WEBHOOK_SECRET).toMatch(/^whsec_/);
  });

  it("answers a form-encoded Stripe call made with the bound key, and the control API sees it", async () => {
    const ws = `ws-wiring-${crypto.randomUUID()}`;
    const res = await fetch(`${bindings.STRIPE_API_BASE}/v1/customers`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${bindings.STRIPE_SECRET_KEY}`,
        "content-type": "application/x-www-form-urlencoded",
        "idempotency-key": ws,
      },
      body: new URLSearchParams({ email: "a@b.c", "metadata[workspace_id]": ws }).toString(),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ object: "customer", metadata: { workspace_id: ws } });
    const requests = await stripeRequests(ws);
    expect(requests).toMatchObject([
      { method: "POST", path: "/v1/customers", idempotency_key: ws, violation: null },
    ]);
    expect(await stripeLedger(ws)).toMatchObject({ charged: 0, refunded: 0, failed: 0 });
    expect(await stripeDeliveries(ws)).toEqual([]);
  });
});
