import type { SessionParams } from "../rules/session-params";

/** The Idempotency-Keys of an order checkout's provider calls, per attempt and per session. */
export const orderCheckoutKeys = (orderId: string, attempt: number) => ({
  customer: `order-customer:${orderId}:${attempt}`,
  session: `order-checkout:${orderId}:${attempt}`,
});

/** The full refund of a paid session that could not pay its order (paid or cancelled meanwhile). */
export const orderRefundKey = (sessionId: string) => `refund:${sessionId}:order-lost`;

export interface OrderSessionInput {
  orderId: string;
  orderNumber: number;
  amount: number;
  currency: string;
  customer: string;
  /** A membership is sold: the card is kept for charges made without the customer. */
  keepCard: boolean;
  metadata: Record<string, string>;
  successUrl: string;
  cancelUrl: string;
  /** ms; sent in whole seconds. */
  expiresAt: number;
}

/**
 * The Checkout Session of an order: one line for what the order still owes
 * (fixed on the server; nothing in the request sets it), saving the card when
 * a membership renews with it.
 */
export function orderSessionParams(input: OrderSessionInput): SessionParams {
  return {
    mode: "payment",
    customer: input.customer,
    payment_method_types: ["card"],
    client_reference_id: input.orderId,
    success_url: input.successUrl,
    cancel_url: input.cancelUrl,
    expires_at: Math.floor(input.expiresAt / 1000),
    metadata: input.metadata,
    line_items: [
      {
        quantity: 1,
        price_data: {
          currency: input.currency.toLowerCase(),
          unit_amount: input.amount,
          product_data: { name: `Order ${input.orderNumber}` },
        },
      },
    ],
    payment_intent_data: {
      metadata: input.metadata,
      ...(input.keepCard ? { setup_future_usage: "off_session" as const } : {}),
    },
  };
}
