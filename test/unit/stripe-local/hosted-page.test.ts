import type Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StripeLocal } from "../../../tools/stripe-local/server";
import { deliveries, paymentSession, startFake } from "./fake";

let server: StripeLocal;
let stripe: Stripe;
beforeAll(async () => {
  ({ server, stripe } = await startFake());
});
afterAll(() => server.close());

const submit = (url: string, card: string) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ card, expiry: "12 / 34", cvc: "123", name: "Ada L" }).toString(),
    redirect: "manual",
  });

describe("stripe-local hosted checkout page", () => {
  it("shows the item and amount with labelled card inputs, a Pay button and a Back link", async () => {
    const session = await paymentSession(stripe, "ws-page");
    const res = await fetch(session.url ?? "");
    expect(res.headers.get("content-type")).toMatch(/text\/html/);
    const html = await res.text();
    expect(html).toContain("Haircut deposit");
    expect(html).toContain("€12.00");
    for (const label of ["Card number", "Expiry (MM / YY)", "CVC", "Name on card"]) {
      expect(html).toContain(`>${label}</label>`);
    }
    expect(html).toContain('<button type="submit">Pay €12.00</button>');
    expect(html).toContain('<a href="https://salon.test/back">Back</a>');
  });

  it("says declined or incorrect on the page, then pays and redirects to success_url with the id", async () => {
    const session = await paymentSession(stripe, "ws-page-pay");
    const url = session.url ?? "";
    const declined = await submit(url, "4000 0000 0000 0002");
    expect(declined.status).toBe(200);
    expect(await declined.text()).toContain("Your card was declined.");
    expect(await (await submit(url, "4111 1111 1111 1112")).text()).toContain(
      "Your card number is incorrect.",
    );
    const paid = await submit(url, "4242 4242 4242 4242");
    expect(paid.status).toBe(303);
    expect(paid.headers.get("location")).toBe(`https://salon.test/paid?session=${session.id}`);
    const types = (await deliveries(server, "ws-page-pay")).map((d) => d.type);
    expect(types.filter((t) => t === "checkout.session.completed")).toHaveLength(1);
    expect(await (await fetch(url)).text()).toContain("This checkout session is already complete.");
  });

  it("offers to save the card in setup mode, and says so once expired", async () => {
    const session = await stripe.checkout.sessions.create({
      mode: "setup",
      success_url: "https://s.test",
      cancel_url: "https://c.test",
      metadata: { workspace_id: "ws-page-setup" },
    });
    const html = await (await fetch(session.url ?? "")).text();
    expect(html).toContain("Save your card");
    expect(html).toContain('<button type="submit">Save card</button>');
    await stripe.checkout.sessions.expire(session.id);
    expect(await (await fetch(`${server.url}/c/pay/${session.id}`)).text()).toContain(
      "This checkout session has expired.",
    );
  });
});
