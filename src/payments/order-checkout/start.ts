import { runBatch } from "../../db/client";
import { readTogether } from "../../db/reads";
import type { UseCaseDeps } from "../../http/deps";
import { configOf } from "../../platform/config";
import { toIso } from "../../platform/clock";
import { ApiError, notFound } from "../../platform/errors";
import { failpoint } from "../../platform/failpoints";
import { invoiceOf } from "../../pos/rules";
import { posOrderRead } from "../../pos/queries/pos-orders";
import { paymentsUnavailable } from "../checkout";
import { outcomeOf, stripeClient } from "../providers/stripe";
import { CHECKOUT_SECONDS } from "../rules/checkout-keys";
import {
  claimOrderCheckout,
  latestOrderCheckout,
  membershipLines,
  orderCheckoutOpened,
} from "../queries/order-checkouts";
import { orderCheckoutKeys, orderSessionParams } from "./session";

export interface OrderCheckoutRequest {
  orderId: string;
  successUrl: string;
  cancelUrl: string;
}

/**
 * Starts (or shows again) the provider's hosted page for what an open POS
 * order still owes: the only way to sell a membership, whose card the page
 * saves for the renewals. Nothing is charged here; the provider's
 * `checkout.session.completed` pays the order.
 */
export async function startOrderCheckout(deps: UseCaseDeps, req: OrderCheckoutRequest) {
  const stripe = configOf(deps.env).stripe;
  const { scope } = deps;
  const { loaded, latest, membership } = await readTogether(scope.db, {
    loaded: posOrderRead(scope, req.orderId),
    latest: latestOrderCheckout(scope, req.orderId),
    membership: membershipLines(scope, req.orderId),
  });
  if (!loaded) throw notFound("Order");
  const { order } = loaded;
  if (order.status !== "open")
    throw new ApiError("order_not_open", "Only an open order can be paid online.");
  if (!order.customerId)
    throw new ApiError(
      "customer_required",
      "The order has no customer: an order paid online needs one (set customer_uuid).",
    );
  const amount = invoiceOf(loaded).amount_due;
  if (amount <= 0)
    throw new ApiError("nothing_due", "Nothing is left to pay on this order: pay it at the till.");
  if (!stripe) throw paymentsUnavailable("payments are not configured.");
  const currency = deps.render.currency;
  const now = Date.now();
  // The page again (a second click): the same session while it lasts and asks the same amount.
  if (
    latest?.status === "open" &&
    latest.checkoutUrl &&
    latest.expiresAt > now &&
    latest.amount === amount
  ) {
    return { checkout_url: latest.checkoutUrl, expires_at: toIso(latest.expiresAt) };
  }
  const attempt = (latest?.attempt ?? 0) + 1;
  const id = crypto.randomUUID();
  const expiresAt = Math.floor(now / 1000) * 1000 + CHECKOUT_SECONDS * 1000;
  const [claimed] = await runBatch(scope.db, [
    claimOrderCheckout(scope.db, {
      id,
      workspaceId: scope.workspaceId,
      orderId: order.id,
      attempt,
      status: "creating",
      amount,
      currency,
      expiresAt,
      createdAt: now,
      updatedAt: now,
    }),
  ]);
  if (!Array.isArray(claimed) || claimed.length === 0)
    throw new ApiError("conflict", "A checkout of this order is being started; try again.");

  failpoint("payments.order_checkout.before_provider");
  const client = stripeClient(stripe, deps.env);
  const metadata = { workspace_id: scope.workspaceId, order_uuid: order.id };
  const keys = orderCheckoutKeys(order.id, attempt);
  const customer = await outcomeOf(() =>
    client.customers.create(
      {
        metadata: { ...metadata, customer_uuid: order.customerId ?? "" },
        ...(loaded.customer?.email ? { email: loaded.customer.email } : {}),
      },
      { idempotencyKey: keys.customer },
    ),
  );
  if (customer.status !== "done") throw paymentsUnavailable("the payment provider did not answer.");
  const session = await outcomeOf(() =>
    client.checkout.sessions.create(
      orderSessionParams({
        orderId: order.id,
        orderNumber: order.orderNumber,
        amount,
        currency,
        customer: customer.value.id,
        keepCard: membership,
        metadata,
        successUrl: req.successUrl,
        cancelUrl: req.cancelUrl,
        expiresAt,
      }),
      { idempotencyKey: keys.session },
    ),
  );
  if (session.status !== "done" || !session.value.url)
    throw paymentsUnavailable("the payment provider did not answer.");
  const sessionExpires = (session.value.expires_at ?? expiresAt / 1000) * 1000;
  await runBatch(scope.db, [
    orderCheckoutOpened(scope, id, {
      sessionId: session.value.id,
      checkoutUrl: session.value.url,
      expiresAt: sessionExpires,
      providerCustomer: customer.value.id,
    }),
  ]);
  return { checkout_url: session.value.url, expires_at: toIso(sessionExpires) };
}
