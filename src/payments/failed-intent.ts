import type Stripe from "stripe";
import type { EventContext } from "./complete-checkout";
import { writeOutcome } from "./fee-message";
import { outcomeOf, stripeClient } from "./providers/stripe";
import { pendingRowById } from "./queries/ledger";

/**
 * A charge of ours the provider reports as failed (`payment_intent.payment_failed`):
 * the intent is fetched back, and when it did fail and its ledger row
 * (named in its metadata) still waits for an answer, the row is recorded
 * failed now instead of at the reconcile's next repeat. A row already
 * answered is left as it is: the call's own answer came first.
 */
export async function recordFailedIntent(ctx: EventContext, intentId: string): Promise<boolean> {
  const fetched = await outcomeOf(() =>
    stripeClient(ctx.stripe, ctx.env).paymentIntents.retrieve(intentId),
  );
  if (fetched.status === "refused") return false;
  if (fetched.status === "unknown") throw new Error(`payment intent ${intentId}: no answer`);
  const intent: Stripe.PaymentIntent = fetched.value;
  const rowId = intent.metadata?.payment_uuid;
  if (!rowId || !intent.last_payment_error) return false;
  if (intent.status !== "requires_payment_method" && intent.status !== "canceled") return false;
  const row = await pendingRowById(ctx.db, rowId);
  if (!row || row.workspaceId !== intent.metadata?.workspace_id) return false;
  return writeOutcome(ctx.db, row, {
    status: "failed",
    providerRef: null,
    failureReason:
      intent.last_payment_error.decline_code ?? intent.last_payment_error.code ?? "payment_failed",
  });
}
