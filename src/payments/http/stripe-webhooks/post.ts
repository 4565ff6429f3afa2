import type { Context } from "hono";
import type Stripe from "stripe";
import type { OpenEnv } from "../../../http/env";
import { configOf } from "../../../platform/config";
import { ApiError } from "../../../platform/errors";
import { log } from "../../../platform/log";
import { handleProviderEvent } from "../../provider-events";
import { routeLink } from "../../../http/route-link";
import { stripeClient, subtleCrypto } from "../../providers/stripe";
import { UUID } from "../../../platform/rules/uuid";

/** Where the provider posts its events (the endpoint configured in its dashboard). */
export const STRIPE_WEBHOOK_PATH = "/api/payments/stripe/webhook";

/** Events over this size are not the provider's (its largest are tens of KB). */
const MAX_EVENT_BYTES = 256 * 1024;

/**
 * The provider's events: trusted only when the Stripe-Signature header
 * verifies against the endpoint's secret (anything else is 400 and writes
 * nothing), then acted on once per event id, on the shard of the workspace
 * the event's object names. A 5xx (a 503 while the workspace moves among
 * them) makes the provider deliver the event again, so a step that did not
 * finish is retried.
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
  // Every object of ours at the provider names its workspace in its metadata (a charge copies its
  // payment intent's): that workspace's shard holds what the event is about. An event naming no
  // workspace, or one the directory does not know, is none of ours: nothing to do, nothing kept.
  const workspaceId = eventWorkspace(event);
  const db = workspaceId ? await routeLink(c, workspaceId) : null;
  const handled =
    workspaceId && db
      ? await handleProviderEvent(
          { env: c.env, db, defer: (task) => c.var.afterResponse(task), stripe },
          event,
          workspaceId,
        )
      : "ignored";
  log("info", "provider event", { type: event.type, handled });
  return c.json({ received: true, handled }, 200);
}

/**
 * The workspace the event's object names (`metadata.workspace_id`): only where to
 * look, never trusted further (what is acted on is fetched back from the provider).
 */
function eventWorkspace(event: Stripe.Event): string | null {
  const metadata = (event.data.object as { metadata?: unknown }).metadata;
  if (typeof metadata !== "object" || metadata === null) return null;
  const id = (metadata as Record<string, unknown>).workspace_id;
  return typeof id === "string" && UUID.test(id) ? id.toLowerCase() : null;
}

const badSignature = () =>
  new ApiError("invalid_signature", "Missing or invalid Stripe-Signature header.");
