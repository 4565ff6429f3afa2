import type Stripe from "stripe";
import { runBatch } from "../../db/client";
import type { EventContext } from "../complete-checkout";
import { outcomeOf, stripeClient } from "../providers/stripe";
import { closeOrderCheckout, orderCheckoutOfSession } from "../queries/order-checkouts";
import type { OrderCheckoutRow } from "../queries/order-checkouts";
import { completeOrderCheckout } from "./complete";

/** The session the provider shows is the one this checkout made, for the amount it fixed. */
export function agrees(checkout: OrderCheckoutRow, session: Stripe.Checkout.Session): boolean {
  if (session.metadata?.workspace_id !== checkout.workspaceId) return false;
  if (session.metadata?.order_uuid !== checkout.orderId) return false;
  if (session.status === "expired") return true;
  return (
    session.status === "complete" &&
    session.mode === "payment" &&
    session.payment_status === "paid" &&
    session.amount_total === checkout.amount &&
    session.currency?.toLowerCase() === checkout.currency.toLowerCase()
  );
}

/**
 * A session event of an order checkout (null when the session is no order's:
 * a reservation's path handles it). Acted on only as the session fetched back
 * from the provider shows it: paid pays the order, expired closes the
 * checkout (nothing was held, so nothing else is undone).
 */
export async function handleOrderSessionEvent(
  ctx: EventContext,
  sessionId: string,
  workspaceId: string,
): Promise<"handled" | "ignored" | null> {
  const [checkout] = await orderCheckoutOfSession(ctx.db, sessionId);
  if (!checkout) return null;
  if (checkout.workspaceId !== workspaceId) return "ignored";
  const session = await fetchOrderSession(ctx, sessionId);
  if (!agrees(checkout, session)) return "ignored";
  if (session.status === "complete") {
    await completeOrderCheckout(ctx, checkout, session);
    return "handled";
  }
  await runBatch(ctx.db, [closeOrderCheckout(ctx.db, sessionId, { status: "expired" })]);
  return "handled";
}

/** The session as the provider shows it now (throws without an answer: asked again later). */
export async function fetchOrderSession(
  ctx: EventContext,
  sessionId: string,
): Promise<Stripe.Checkout.Session> {
  const fetched = await outcomeOf(() =>
    stripeClient(ctx.stripe, ctx.env).checkout.sessions.retrieve(sessionId, {
      expand: ["payment_intent"],
    }),
  );
  // No answer: the event is answered 500 and the provider delivers it again.
  if (fetched.status !== "done")
    throw new Error(`checkout session ${sessionId}: ${fetched.status}`);
  return fetched.value;
}
