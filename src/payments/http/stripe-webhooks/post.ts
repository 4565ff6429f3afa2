import type { Context } from "hono";
import type Stripe from "stripe";
import type { OpenEnv } from "../../../http/env";
import { configOf } from "../../../platform/config";
import { ApiError } from "../../../platform/errors";
import { log } from "../../../platform/log";
import { handleProviderEvent } from "../../provider-events";
import { stripeClient, subtleCrypto } from "../../providers/stripe";

/** Where the provider posts its events (the endpoint configured in its dashboard). */
export const STRIPE_WEBHOOK_PATH = "/api/payments/stripe/webhook";

/** Events over this size are not the provider's (its largest are tens of KB). */
const MAX_EVENT_BYTES = 256 * 1024;

/**
 * The provider's events: trusted only when the Stripe-Signature header
 * verifies against the endpoint's secret (anything else is 400 and writes
 * nothing), then acted on once per event id. A 5xx makes the provider
 * deliver the event again, so a step that did not finish is retried.
 */
export async function stripeWebhook(c: Context<OpenEnv>) {
  const stripe = configOf(c.env).stripe;
  if (!stripe?.webhookSecret) {
    throw new ApiError("payments_unavailable", "Online payments are not configured.");
  }
  const signature = c.req.header("stripe-signature");
  const length = Number(c.req.header("content-length") ?? "0");
  if (!signature || length > MAX_EVENT_BYTES) {
    throw badSignature();
  }
  const payload = await c.req.text();
  // A chunked body says no length up front: its size is checked once read.
  if (payload.length > MAX_EVENT_BYTES) throw badSignature();
  let event: Stripe.Event;
  try {
    event = await stripeClient(stripe).webhooks.constructEventAsync(
      payload,
      signature,
      stripe.webhookSecret,
      undefined,
      subtleCrypto,
    );
  } catch {
    throw badSignature();
  }
  const handled = await handleProviderEvent(
    { env: c.env, db: c.var.db, defer: (task) => c.var.afterResponse(task), stripe },
    event,
  );
  log("info", "provider event", { type: event.type, handled });
  return c.json({ received: true, handled }, 200);
}

const badSignature = () =>
  new ApiError("invalid_signature", "Missing or invalid Stripe-Signature header.");
