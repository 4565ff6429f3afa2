import type Stripe from "stripe";
import { runBatch } from "../../db/client";
import { guard } from "../../db/guards";
import type { Scope } from "../../db/scope";
import { payOrderOnline } from "../../packages/checkout/pay-online";
import { ApiError, InvalidError } from "../../platform/errors";
import { failpoint } from "../../platform/failpoints";
import { log } from "../../platform/log";
import type { EventContext } from "../complete-checkout";
import { outcomeOf, stripeClient } from "../providers/stripe";
import {
  closeOrderCheckout,
  orderCheckoutStillOpen,
  type OrderCheckoutRow,
} from "../queries/order-checkouts";
import { orderRefundKey } from "./session";

const idOf = (v: string | { id: string } | null | undefined) =>
  v === null || v === undefined ? null : typeof v === "string" ? v : v.id;

/**
 * A paid order checkout, as the provider shows it when asked back: the order
 * is paid on its location's online account and its packages issued with the
 * card the page saved, in one batch that also closes the checkout. An order
 * paid, cancelled or changed meanwhile is not paid twice: the money goes back
 * in full at once.
 */
export async function completeOrderCheckout(
  ctx: EventContext,
  checkout: OrderCheckoutRow,
  session: Stripe.Checkout.Session,
): Promise<"paid" | "refunded" | "already"> {
  const pi = typeof session.payment_intent === "object" ? session.payment_intent : null;
  if (!pi) throw new Error(`checkout session ${session.id}: no payment intent`);
  if (checkout.status === "complete") {
    // A redelivery after the refund's answer was lost: the same call, the same key, acts once.
    if (checkout.failure) await refundOrderSession(ctx, checkout, session.id, pi.id);
    return "already";
  }
  const scope: Scope = { db: ctx.db, workspaceId: checkout.workspaceId };
  const customer = idOf(session.customer) ?? idOf(pi.customer);
  const method = idOf(pi.payment_method);
  try {
    failpoint("payments.order_checkout.before_pay");
    await payOrderOnline(scope, checkout.orderId, {
      amount: checkout.amount,
      card: customer && method ? { providerCustomer: customer, paymentMethod: method } : undefined,
      alongside: [
        guard(scope, orderCheckoutStillOpen(session.id)),
        // The refund of the order, later, gives back this payment.
        closeOrderCheckout(ctx.db, session.id, { status: "complete", paymentIntent: pi.id }),
      ],
    });
    return "paid";
  } catch (error) {
    if (!(error instanceof ApiError || error instanceof InvalidError)) throw error;
    // Another delivery of this event paid it: nothing to give back.
    const [closed] = await runBatch(ctx.db, [
      closeOrderCheckout(ctx.db, session.id, { status: "complete", failure: error.code }),
    ]);
    if (!Array.isArray(closed) || closed.length === 0) return "already";
    log("warn", "paid order checkout could not pay its order; refunding in full", {
      order: checkout.orderId,
      code: error.code,
    });
    await refundOrderSession(ctx, checkout, session.id, pi.id);
    return "refunded";
  }
}

/**
 * Gives back everything a session took when it could not pay its order.
 * Without an answer it throws: the webhook answers 500, the provider delivers
 * the event again, and the same call under the same key refunds once.
 */
export async function refundOrderSession(
  ctx: EventContext,
  checkout: Pick<OrderCheckoutRow, "workspaceId" | "orderId">,
  sessionId: string,
  paymentIntent: string,
) {
  const refunded = await outcomeOf(() =>
    stripeClient(ctx.stripe, ctx.env).refunds.create(
      {
        payment_intent: paymentIntent,
        metadata: { workspace_id: checkout.workspaceId, order_uuid: checkout.orderId },
      },
      { idempotencyKey: orderRefundKey(sessionId) },
    ),
  );
  // Refused: already refunded in full (in the dashboard, or by an earlier try). Nothing left to give.
  if (refunded.status === "unknown") throw new Error(`refund of ${sessionId}: no answer`);
}
