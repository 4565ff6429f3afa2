import type Stripe from "stripe";
import { runBatch } from "../../db/client";
import type { Scope } from "../../db/scope";
import type { RenewalRow } from "../../packages/queries/renewals";
import { renewalRefundAnswered, renewalRefundPending } from "../../packages/queries/renewal-tries";
import { failpoint } from "../../platform/failpoints";
import { log } from "../../platform/log";
import { outcomeOf } from "../providers/stripe";

/** One refund per membership and period, whoever sends it (this sweep, the next after a lost answer). */
export const renewalRefundKey = (customerPackageId: string, period: number) =>
  `refund:membership:${customerPackageId}:${period}`;

type Refunding = Pick<
  RenewalRow,
  "id" | "workspaceId" | "customerPackageId" | "period" | "amount" | "providerRef"
>;

/**
 * Sends a renewal's refund and writes its answer: the same parameters under
 * the same key every time, so a repeat is answered with what the provider did
 * the first time. Without an answer it stays refund_pending for the next sweep.
 */
export async function finishRenewalRefund(
  scope: Scope,
  stripe: Stripe,
  row: Refunding,
): Promise<"refunded" | "pending"> {
  const outcome = await outcomeOf(() =>
    stripe.refunds.create(
      {
        payment_intent: row.providerRef ?? "",
        amount: row.amount,
        metadata: {
          workspace_id: row.workspaceId,
          customer_package_uuid: row.customerPackageId,
          period: String(row.period),
        },
      },
      { idempotencyKey: renewalRefundKey(row.customerPackageId, row.period) },
    ),
  );
  // Between the provider's answer and our write: a test stops here to lose the answer.
  failpoint("packages.renewal.refund_answered", row.customerPackageId);
  if (outcome.status === "unknown") {
    log("warn", "renewal refund unanswered; the next sweep repeats it", {
      renewal: row.id,
      reason: outcome.reason,
    });
    return "pending";
  }
  if (outcome.status === "refused")
    // Refused (refunded in the dashboard already, say): a person checks.
    log("error", "renewal refund refused by the provider", { renewal: row.id, code: outcome.code });
  await runBatch(scope.db, [
    renewalRefundAnswered(
      scope,
      row.id,
      outcome.status === "done"
        ? { status: "refunded", refundRef: outcome.value.id, failureReason: null }
        : { status: "refund_failed", refundRef: null, failureReason: outcome.code ?? "refused" },
      Date.now(),
    ),
  ]);
  return "refunded";
}

/**
 * A charge that succeeded for a membership found void (its order refunded
 * between the sweep's read and the answer, or before a lost answer was
 * repeated): recorded refund_pending on the try (once: guarded on the try
 * still pending), then refunded.
 */
export async function refundRenewalCharge(
  scope: Scope,
  stripe: Stripe,
  renewal: RenewalRow,
  paymentIntent: string,
): Promise<"refunded" | "pending"> {
  await runBatch(scope.db, renewalRefundPending(scope, renewal, paymentIntent, Date.now()));
  return finishRenewalRefund(scope, stripe, { ...renewal, providerRef: paymentIntent });
}
