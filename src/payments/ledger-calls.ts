import type Stripe from "stripe";
import type { Database } from "../db/client";
import { failpoint } from "../platform/failpoints";
import { log } from "../platform/log";
import { outcomeOf } from "./providers/stripe";
import { type OutcomeCause, writeOutcome } from "./fee-message";
import type { BookingPaymentRecord, LedgerRecord } from "./queries/ledger";

/** A ledger row a cancel's settlement writes and then makes its provider call for. */
export type SettlementRow = Pick<
  LedgerRecord,
  "id" | "workspaceId" | "bookingId" | "kind" | "amount" | "currency" | "idempotencyKey"
>;

/** The kinds whose provider call this module makes (and so can repeat): a refund, a fee. */
export const isSettlementKind = (kind: LedgerRecord["kind"]) =>
  kind === "refund" || kind === "late_cancel_fee" || kind === "no_show_fee";

/**
 * The provider call of a settlement row, built from the row and the
 * booking's payment alone: a repeat (a reconcile after the worker stopped)
 * sends the very same parameters under the same Idempotency-Key, which the
 * provider answers with what it did the first time.
 */
async function call(
  stripe: Stripe,
  row: SettlementRow,
  payment: BookingPaymentRecord,
): Promise<{ id: string }> {
  const metadata = {
    workspace_id: row.workspaceId,
    booking_uuid: row.bookingId,
    payment_uuid: row.id,
  };
  const options = { idempotencyKey: row.idempotencyKey };
  if (row.kind === "refund") {
    return stripe.refunds.create(
      { payment_intent: payment.paymentIntent ?? "", amount: row.amount, metadata },
      options,
    );
  }
  return stripe.paymentIntents.create(
    {
      amount: row.amount,
      currency: row.currency.toLowerCase(),
      customer: payment.providerCustomer ?? "",
      payment_method: payment.paymentMethod ?? "",
      off_session: true,
      confirm: true,
      metadata,
    },
    options,
  );
}

/**
 * Why a row's call cannot be made at all (recorded as its failure, never
 * sent): a refund needs the payment it returns, a fee the saved card.
 */
export function missingFor(
  kind: LedgerRecord["kind"],
  payment: Pick<BookingPaymentRecord, "paymentIntent" | "providerCustomer" | "paymentMethod">,
): "no_payment_intent" | "no_saved_card" | null {
  if (kind === "refund") return payment.paymentIntent ? null : "no_payment_intent";
  return payment.providerCustomer && payment.paymentMethod ? null : "no_saved_card";
}

/**
 * Makes a pending row's provider call and writes its answer: succeeded,
 * failed (a declined card, a refused request: the provider did nothing), or,
 * without an answer, nothing (the row stays pending and the reconcile loop
 * repeats the call with the same key). Answers whether the row is finished.
 */
export async function finishCall(
  db: Database,
  stripe: Stripe,
  row: SettlementRow,
  payment: BookingPaymentRecord,
  cause: OutcomeCause = {},
): Promise<"succeeded" | "failed" | "pending"> {
  const missing = missingFor(row.kind, payment);
  const outcome = missing
    ? ({ status: "refused", reason: missing, code: missing } as const)
    : await outcomeOf(() => call(stripe, row, payment));
  // Between the provider's answer and our write: a test stops here to lose the answer.
  failpoint("payments.call.answered", row.idempotencyKey);
  if (outcome.status === "unknown") {
    log("warn", "payment call unanswered; the reconcile loop repeats it", {
      kind: row.kind,
      payment: row.id,
      reason: outcome.reason,
    });
    return "pending";
  }
  const answer =
    outcome.status === "done"
      ? { status: "succeeded" as const, providerRef: outcome.value.id, failureReason: null }
      : { status: "failed" as const, providerRef: null, failureReason: outcome.code ?? "refused" };
  // With the customer's payment-fee-charged message when a fee went through.
  await writeOutcome(db, row, answer, cause);
  return answer.status;
}
