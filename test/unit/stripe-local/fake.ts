import Stripe from "stripe";
import { createStripeLocal, type StripeLocal } from "../../../tools/stripe-local/server";

export const SECRET = "whsec_unit_test";

/** A fresh stripe-local and the real stripe package pointed at it. */
export async function startFake(options: { webhookUrl?: string; retryDelaysMs?: number[] } = {}) {
  const server = await createStripeLocal({ webhookSecret: SECRET, ...options });
  return { server, stripe: client(server) };
}

export function client(server: StripeLocal, maxNetworkRetries = 0) {
  const url = new URL(server.url);
  return new Stripe("sk_test_unit", {
    host: url.hostname,
    port: Number(url.port),
    protocol: "http",
    httpClient: Stripe.createFetchHttpClient(),
    maxNetworkRetries,
  });
}

export const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

/** A payment-mode session of €12.00 for `ws`, saving the card for later off-session charges. */
export async function paymentSession(stripe: Stripe, ws: string, customer?: string) {
  return stripe.checkout.sessions.create({
    mode: "payment",
    customer,
    // What the Worker sends; stripe v23's types dropped it (API 2026), Stripe still takes it.
    ...({ payment_method_types: ["card"] } as object),
    line_items: [
      {
        price_data: {
          currency: "eur",
          unit_amount: 1200,
          product_data: { name: "Haircut deposit" },
        },
        quantity: 1,
      },
    ],
    payment_intent_data: {
      setup_future_usage: "off_session",
      metadata: { workspace_id: ws, booking_uuid: "b-1" },
    },
    success_url: "https://salon.test/paid?session={CHECKOUT_SESSION_ID}",
    cancel_url: "https://salon.test/back",
    expires_at: inAnHour(),
    client_reference_id: "b-1",
    metadata: { workspace_id: ws, booking_uuid: "b-1" },
  });
}

export async function control<T>(
  server: StripeLocal,
  method: string,
  path: string,
  body?: unknown,
) {
  const res = await fetch(`${server.url}/_local${path}`, {
    method,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as T };
}

export const pay = (server: StripeLocal, id: string, card: string) =>
  control<{ status: string; redirect: string | null }>(server, "POST", `/checkout/${id}/pay`, {
    card,
  });

export const deliveries = (server: StripeLocal, ws: string) =>
  control<{ id: string; type: string; payload: string; signature: string }[]>(
    server,
    "GET",
    `/deliveries?workspace=${ws}`,
  ).then((r) => r.body);
