import type Stripe from "stripe";
import { runBatch, type Database } from "../../db/client";
import { configOf } from "../../platform/config";
import { failpoint } from "../../platform/failpoints";
import { log } from "../../platform/log";
import type { OnlineRefunds } from "../../pos/online-refunds";
import { outcomeOf, stripeClient } from "../providers/stripe";
import {
  type OrderCheckoutRow,
  orderRefundAnswered,
  orderRefundPending,
  paidOrderCheckout,
  pendingOrderRefundOf,
} from "../queries/order-checkouts";

/** One refund per order, whoever sends it (the route, the reconcile repeating it). */
export const orderRefundCallKey = (orderId: string) => `refund:order:${orderId}`;

/**
 * Sends a pending order refund to the provider and writes its answer: the
 * same parameters under the same key every time, so a repeat (the reconcile,
 * after a lost answer) is answered with what the provider did the first time.
 * Without an answer the refund stays pending. Answers where it stands.
 */
export async function finishOrderRefund(
  db: Database,
  stripe: Stripe,
  row: OrderCheckoutRow,
): Promise<"succeeded" | "failed" | "pending"> {
  const amount = row.refundAmount ?? row.amount;
  const outcome = row.paymentIntent
    ? await outcomeOf(() =>
        stripe.refunds.create(
          {
            payment_intent: row.paymentIntent ?? "",
            amount,
            metadata: { workspace_id: row.workspaceId, order_uuid: row.orderId },
          },
          { idempotencyKey: orderRefundCallKey(row.orderId) },
        ),
      )
    : ({ status: "refused", reason: "no payment intent", code: "no_payment_intent" } as const);
  // Between the provider's answer and our write: a test stops here to lose the answer.
  failpoint("payments.order_refund.answered", row.orderId);
  if (outcome.status === "unknown") {
    log("warn", "order refund unanswered; the payments reconcile repeats it", {
      order: row.orderId,
      reason: outcome.reason,
    });
    return "pending";
  }
  if (outcome.status === "refused")
    // Refused (already refunded in the dashboard, say): the books say refunded, a person checks.
    log("error", "order refund refused by the provider", {
      order: row.orderId,
      code: outcome.code,
    });
  await runBatch(db, [
    orderRefundAnswered(
      db,
      row.id,
      outcome.status === "done"
        ? { refundStatus: "succeeded", refundRef: outcome.value.id }
        : { refundStatus: "failed", refundFailure: outcome.code ?? "refused" },
    ),
  ]);
  return outcome.status === "done" ? "succeeded" : "failed";
}

/** What src/pos's refund asks of online money (installed by the composition root). */
export const orderOnlineRefunds: OnlineRefunds = {
  paidWith: paidOrderCheckout,
  record: (scope, payment, at) => [orderRefundPending(scope, payment.id, payment.amount, at)],
  send: async (deps, orderId) => {
    const settings = configOf(deps.env).stripe;
    if (!settings) {
      log("error", "an order refund waits: payments are not configured", { order: orderId });
      return;
    }
    const [row] = await pendingOrderRefundOf(deps.scope, orderId);
    if (!row) return;
    try {
      await finishOrderRefund(deps.scope.db, stripeClient(settings, deps.env), row);
    } catch (error) {
      // The refund is committed and pending: the reconcile finishes it; the answer stands.
      log("error", "order refund call failed; the payments reconcile repeats it", {
        error,
        order: orderId,
      });
    }
  },
};
