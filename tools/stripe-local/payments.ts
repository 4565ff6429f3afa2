// The money movements, shared by the /v1 routes, the hosted page and the control API.
import { cardDigits } from "./cards";
import type { Ctx } from "./context";
import { invalidRequest, StripeError } from "./errors";
import { emitEvent } from "./events";
import { newId, nowSeconds } from "./ids";
import type {
  Charge,
  Customer,
  LastPaymentError,
  Metadata,
  PaymentIntent,
  PaymentMethod,
  Refund,
} from "./objects";
import { workspaceOf, type LedgerEntry } from "./state";

export function createPaymentMethod(
  ctx: Ctx,
  card: { number: string; name: string | null; expMonth: number; expYear: number },
  failsLater: boolean,
): PaymentMethod {
  const pm = ctx.state.put<PaymentMethod>({
    id: newId("pm"),
    object: "payment_method",
    billing_details: { address: null, email: null, name: card.name, phone: null },
    card: {
      brand: "visa",
      exp_month: card.expMonth,
      exp_year: card.expYear,
      funding: "credit",
      last4: cardDigits(card.number).slice(-4),
      country: "US",
    },
    created: nowSeconds(),
    customer: null,
    livemode: false,
    metadata: {},
    type: "card",
  });
  if (failsLater) ctx.state.failingMethods.add(pm.id);
  return pm;
}

export function attachToCustomer(ctx: Ctx, pm: PaymentMethod, customerId: string | null) {
  if (!customerId || !ctx.state.get<Customer>(customerId, "customer")) return;
  pm.customer = customerId;
  ctx.state.put(pm);
}

export function newPaymentIntent(
  fields: Pick<PaymentIntent, "amount" | "currency" | "customer" | "description" | "metadata"> & {
    setup_future_usage?: PaymentIntent["setup_future_usage"];
  },
): PaymentIntent {
  const id = newId("pi");
  return {
    id,
    object: "payment_intent",
    amount: fields.amount,
    amount_capturable: 0,
    amount_received: 0,
    capture_method: "automatic",
    client_secret: `${id}_secret_${newId("s").slice(2)}`,
    confirmation_method: "automatic",
    created: nowSeconds(),
    currency: fields.currency,
    customer: fields.customer,
    description: fields.description,
    last_payment_error: null,
    latest_charge: null,
    livemode: false,
    metadata: fields.metadata,
    payment_method: null,
    payment_method_types: ["card"],
    setup_future_usage: fields.setup_future_usage ?? null,
    status: "requires_payment_method",
  };
}

function record(ctx: Ctx, entry: Omit<LedgerEntry, "created">) {
  ctx.state.ledger.push({ ...entry, created: nowSeconds() });
}

function newCharge(pi: PaymentIntent, pm: PaymentMethod, succeeded: boolean): Charge {
  const id = newId("ch");
  return {
    id,
    object: "charge",
    amount: pi.amount,
    amount_captured: succeeded ? pi.amount : 0,
    amount_refunded: 0,
    billing_details: pm.billing_details,
    captured: succeeded,
    created: nowSeconds(),
    currency: pi.currency,
    customer: pi.customer,
    description: pi.description,
    disputed: false,
    failure_code: succeeded ? null : "card_declined",
    failure_message: succeeded ? null : "Your card was declined.",
    livemode: false,
    // Stripe copies the PaymentIntent's metadata onto its charges.
    metadata: { ...pi.metadata },
    outcome: succeeded
      ? {
          type: "authorized",
          network_status: "approved_by_network",
          seller_message: "Payment complete.",
        }
      : {
          type: "issuer_declined",
          network_status: "declined_by_network",
          seller_message: "The bank did not approve the charge.",
        },
    paid: succeeded,
    payment_intent: pi.id,
    payment_method: pm.id,
    refunded: false,
    refunds: {
      object: "list",
      data: [],
      has_more: false,
      total_count: 0,
      url: `/v1/charges/${id}/refunds`,
    },
    status: succeeded ? "succeeded" : "failed",
  };
}

/**
 * Confirms a PaymentIntent with a payment method: succeeded with a charge, or (a method that
 * fails off-session) a declined charge, the intent back to requires_payment_method and Stripe's
 * 402 card_error carrying the intent.
 */
export function confirmPayment(
  ctx: Ctx,
  pi: PaymentIntent,
  pm: PaymentMethod,
  source: "api" | "checkout",
  declines: boolean,
): PaymentIntent {
  pi.payment_method = pm.id;
  const charge = ctx.state.put(newCharge(pi, pm, !declines));
  pi.latest_charge = charge.id;
  const workspace = workspaceOf(pi);
  if (declines) {
    const lastError: LastPaymentError = {
      type: "card_error",
      code: "card_declined",
      decline_code: "generic_decline",
      message: "Your card was declined.",
      payment_method: structuredClone(pm),
    };
    pi.status = "requires_payment_method";
    pi.last_payment_error = lastError;
    pi.payment_method = null;
    ctx.state.put(pi);
    record(ctx, {
      kind: "charge_failed",
      workspace,
      payment_intent: pi.id,
      amount: pi.amount,
      currency: pi.currency,
      id: charge.id,
      source,
    });
    emitEvent(ctx.outbox, "payment_intent.payment_failed", pi, ctx.request);
    throw new StripeError(402, {
      type: "card_error",
      code: "card_declined",
      decline_code: "generic_decline",
      message: "Your card was declined.",
      payment_intent: structuredClone(pi),
      doc_url: "https://stripe.com/docs/error-codes/card-declined",
    });
  }
  pi.status = "succeeded";
  pi.amount_received = pi.amount;
  pi.last_payment_error = null;
  ctx.state.put(pi);
  record(ctx, {
    kind: "charge_succeeded",
    workspace,
    payment_intent: pi.id,
    amount: pi.amount,
    currency: pi.currency,
    id: charge.id,
    source,
  });
  emitEvent(ctx.outbox, "payment_intent.succeeded", pi, ctx.request);
  return pi;
}

/** Refunds part or all of what remains of a PaymentIntent's charge; emits charge.refunded. */
export function refundPayment(
  ctx: Ctx,
  piId: string,
  amount: number | undefined,
  metadata: Metadata,
  reason: Refund["reason"],
  source: "api" | "dashboard",
): Refund {
  const pi = ctx.state.get<PaymentIntent>(piId, "payment_intent");
  if (!pi)
    throw invalidRequest(`No such payment_intent: '${piId}'`, "payment_intent", "resource_missing");
  const charge = pi.latest_charge ? ctx.state.get<Charge>(pi.latest_charge, "charge") : undefined;
  if (!charge || pi.status !== "succeeded") {
    throw invalidRequest(
      `This PaymentIntent (${pi.id}) does not have a successful charge to refund.`,
      "payment_intent",
    );
  }
  const remaining = charge.amount - charge.amount_refunded;
  if (remaining === 0) {
    throw invalidRequest(
      `Charge ${charge.id} has already been refunded.`,
      undefined,
      "charge_already_refunded",
    );
  }
  const value = amount ?? remaining;
  if (value <= 0)
    throw invalidRequest("Invalid positive integer", "amount", "parameter_invalid_integer");
  if (value > remaining) {
    throw invalidRequest(
      `Refund amount (${value}) is greater than unrefunded amount on charge (${remaining})`,
      "amount",
      "amount_too_large",
    );
  }
  const refund = ctx.state.put<Refund>({
    id: newId("re"),
    object: "refund",
    amount: value,
    balance_transaction: null,
    charge: charge.id,
    created: nowSeconds(),
    currency: charge.currency,
    metadata,
    payment_intent: pi.id,
    reason,
    status: "succeeded",
  });
  charge.amount_refunded += value;
  charge.refunded = charge.amount_refunded === charge.amount;
  charge.refunds.data.unshift(refund);
  charge.refunds.total_count += 1;
  ctx.state.put(charge);
  record(ctx, {
    kind: "refund",
    workspace: workspaceOf(pi),
    payment_intent: pi.id,
    amount: value,
    currency: charge.currency,
    id: refund.id,
    source,
  });
  emitEvent(ctx.outbox, "charge.refunded", charge, ctx.request);
  return refund;
}
