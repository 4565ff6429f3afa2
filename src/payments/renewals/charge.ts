import type Stripe from "stripe";
import type { RenewalRow } from "../../packages/queries/renewals";
import { renewalKey } from "../../packages/rules";
import { type Outcome, outcomeOf } from "../providers/stripe";

export interface SavedCard {
  providerCustomer: string;
  paymentMethod: string;
}

/**
 * One try of a period's charge, off-session on the saved card. Its parameters
 * come only from the renewal row and the card, and its Idempotency-Key from
 * the try: the same try repeated (two sweeps at once, a lost answer) is the
 * same request, which the provider answers with what it did the first time.
 */
export const chargeRenewal = (
  stripe: Stripe,
  renewal: Pick<
    RenewalRow,
    "workspaceId" | "customerPackageId" | "period" | "attempt" | "amount" | "currency"
  >,
  card: SavedCard,
): Promise<Outcome<Stripe.PaymentIntent>> =>
  outcomeOf(() =>
    stripe.paymentIntents.create(
      {
        amount: renewal.amount,
        currency: renewal.currency.toLowerCase(),
        customer: card.providerCustomer,
        payment_method: card.paymentMethod,
        off_session: true,
        confirm: true,
        metadata: {
          workspace_id: renewal.workspaceId,
          customer_package_uuid: renewal.customerPackageId,
          period: String(renewal.period),
        },
      },
      {
        idempotencyKey: renewalKey(renewal.customerPackageId, renewal.period, renewal.attempt),
      },
    ),
  );
