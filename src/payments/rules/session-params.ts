import type Stripe from "stripe";
import type { PaymentTerms } from "../../catalogue/rules/payment-policy";
import type { HeldItem } from "../../calendar/held-items";

export interface SessionInput {
  terms: PaymentTerms;
  customer: string;
  reservationId: string;
  metadata: Record<string, string>;
  successUrl: string;
  cancelUrl: string;
  /** ms; sent in whole seconds. */
  expiresAt: number;
  items: HeldItem[];
}

/**
 * The session's parameters in the API version the client pins (see
 * `STRIPE_API_VERSION`): cards only, named as that version names them.
 */
export type SessionParams = Stripe.Checkout.SessionCreateParams & {
  payment_method_types?: string[];
};

/** Fees later need the card again: the provider keeps it for charges without the customer. */
export const keepsCard = (terms: PaymentTerms) =>
  terms.late_cancel !== null || terms.no_show_fee !== null;

/**
 * The provider's Checkout Session for a reservation's terms: `payment` mode
 * for a deposit or a prepayment (saving the card when a fee may follow),
 * `setup` mode to save the card only. The amount is the reservation's, fixed
 * on the server when the time was held: nothing in the request sets it.
 */
export function checkoutSessionParams(input: SessionInput): SessionParams {
  const { terms } = input;
  const common = {
    customer: input.customer,
    payment_method_types: ["card"],
    client_reference_id: input.reservationId,
    success_url: input.successUrl,
    cancel_url: input.cancelUrl,
    expires_at: Math.floor(input.expiresAt / 1000),
    metadata: input.metadata,
  } satisfies SessionParams;
  if (terms.mode === "card_on_file" || terms.amount_due_now <= 0) {
    return { ...common, mode: "setup", setup_intent_data: { metadata: input.metadata } };
  }
  const starts = input.items.map((i) => i.datetime_start).join(", ");
  return {
    ...common,
    mode: "payment",
    line_items: [
      {
        quantity: 1,
        price_data: {
          currency: terms.currency.toLowerCase(),
          unit_amount: terms.amount_due_now,
          product_data: {
            name: `${terms.mode === "prepay" ? "Payment" : "Deposit"} for the booking at ${starts}`,
          },
        },
      },
    ],
    payment_intent_data: {
      metadata: input.metadata,
      ...(keepsCard(terms) ? { setup_future_usage: "off_session" as const } : {}),
    },
  };
}
