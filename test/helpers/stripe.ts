import { inject } from "vitest";

/** stripe-local's base URL (test/setup/stripe-server.ts); the Worker's STRIPE_API_BASE. */
export const stripeBase = () => inject("stripeServer");

/** A signed event as stripe-local would have POSTed it, for the test to post to the Worker. */
export interface StripeDelivery {
  id: string;
  type: string;
  /** The raw JSON body, byte for byte what the signature covers. */
  payload: string;
  /** The Stripe-Signature header: `t=…,v1=…`. */
  signature: string;
}

export interface StripeRequestRecord {
  id: string;
  method: string;
  path: string;
  idempotency_key: string | null;
  params: Record<string, unknown>;
  status: number;
  /** Why the request broke Stripe's OpenAPI description, or null. */
  violation: string | null;
  replayed: boolean;
  workspace: string | null;
  at: number;
}

export interface StripeLedgerEntry {
  kind: "charge_succeeded" | "charge_failed" | "refund";
  workspace: string | null;
  payment_intent: string;
  amount: number;
  currency: string;
  id: string;
  source: "api" | "checkout" | "dashboard";
  created: number;
}

export interface StripeLedger {
  entries: StripeLedgerEntry[];
  /** Sum of succeeded charges, minor units. */
  charged: number;
  refunded: number;
  /** Number of declined charges. */
  failed: number;
  payments: number;
  refunds: number;
}

export interface StripeFault {
  method: "GET" | "POST";
  /** A path prefix: "/v1/payment_intents" matches every payment-intent request. */
  path: string;
  /**
   * before: fails without acting; after: acts (kept under its Idempotency-Key), then fails;
   * decline: a confirmed payment intent's charge is declined (402 card_declined, as card …0341).
   */
  when: "before" | "after" | "delay" | "decline";
  times?: number;
  delayMs?: number;
  /** Only requests about this workspace's objects: test files running at once share the server. */
  workspace?: string;
}

async function control<T>(method: "GET" | "POST", path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${stripeBase()}/_local${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`stripe-local ${method} ${path}: ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

const ws = (workspace: string) => `?workspace=${encodeURIComponent(workspace)}`;

/** The workspace's events not taken yet (taking them marks them taken). */
export const stripeDeliveries = (workspace: string) =>
  control<StripeDelivery[]>("GET", `/deliveries${ws(workspace)}`);

/** Submits the hosted checkout page with a test card (4242…, 4000…0002, 4000…0341). */
export const payCheckout = (sessionId: string, card = "4242424242424242") =>
  control<{ status: string; redirect: string | null; message?: string }>(
    "POST",
    `/checkout/${encodeURIComponent(sessionId)}/pay`,
    { card },
  );

/** Expires an open session as if its time ran out (checkout.session.expired). */
export const expireCheckout = (sessionId: string) =>
  control<unknown>("POST", `/checkout/${encodeURIComponent(sessionId)}/expire`);

/** A refund made in Stripe's dashboard (charge.refunded, not through the Worker). */
export const dashboardRefund = (paymentIntent: string, amount?: number) =>
  control<{ id: string; amount: number }>("POST", "/dashboard-refund", {
    payment_intent: paymentIntent,
    amount,
  });

/** Makes the next matching /v1 requests fail with Stripe's 500 api_error. */
export const stripeFault = (fault: StripeFault) => control<unknown>("POST", "/faults", fault);

/** Every /v1 request stripe-local received about the workspace's objects. */
export const stripeRequests = (workspace: string) =>
  control<StripeRequestRecord[]>("GET", `/requests${ws(workspace)}`);

/** The workspace's money as stripe-local holds it. */
export const stripeLedger = (workspace: string) =>
  control<StripeLedger>("GET", `/ledger${ws(workspace)}`);
