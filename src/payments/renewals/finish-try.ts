import type Stripe from "stripe";
import { runBatch } from "../../db/client";
import { isGuardFailure } from "../../db/constraints";
import { run } from "../../db/reads";
import type { Scope } from "../../db/scope";
import { membershipRead, type RenewalRow } from "../../packages/queries/renewals";
import { renewalFailedQuietly } from "../../packages/queries/renewal-tries";
import { renewalDeclined, renewalPaid } from "../../packages/renewal/answer";
import type { CreditRow, CustomerPackageRow } from "../../packages/views/customer-package";
import { failpoint, rendezvous } from "../../platform/failpoints";
import { log } from "../../platform/log";
import { chargeRenewal } from "./charge";
import { refundRenewalCharge } from "./refund";

export type Renewed = "renewed" | "declined" | "pending" | "refunded" | "stopped" | "skipped";

interface Read {
  pkg: CustomerPackageRow;
  credits: CreditRow[];
}

/**
 * Whether the membership, read again after an answer's guard failed, is void
 * with this try still pending: then the answer is the void's (refund or a
 * quiet decline). Anything else (another sweep wrote the answer) is the guard's.
 */
async function voidedMeanwhile(scope: Scope, renewal: RenewalRow): Promise<boolean> {
  const again = await run(scope.db, membershipRead(scope, renewal.customerPackageId));
  const row = again?.renewals.find((r) => r.id === renewal.id);
  return (
    again?.pkg.status === "void" && row?.status === "pending" && row.attempt === renewal.attempt
  );
}

/**
 * Makes a try's charge (the same key on every repeat) and writes its answer.
 * A membership that is void (read so, or voided by a refund of its order
 * before the answer's batch ran, which its guard then refuses) gets no credits
 * and is never made past due: a charge made is refunded, a decline only
 * answers the try.
 */
export async function finishTry(
  scope: Scope,
  stripe: Stripe,
  m: Read,
  renewal: RenewalRow,
  now: number,
): Promise<Renewed> {
  const { pkg } = m;
  // Two sweeps at once can be made to meet here: both then call, under the one key.
  await rendezvous("packages.renewal.before_charge");
  const outcome = await chargeRenewal(stripe, renewal, {
    providerCustomer: pkg.providerCustomer ?? "",
    paymentMethod: pkg.paymentMethod ?? "",
  });
  // Between the provider's answer and our write: a test stops here to lose the answer.
  failpoint("packages.renewal.answered", pkg.id);
  if (outcome.status === "unknown") {
    log("warn", "renewal charge unanswered; the next sweep repeats it", {
      membership: pkg.id,
      reason: outcome.reason,
    });
    return "pending";
  }
  const onVoid = () =>
    outcome.status === "done"
      ? refundRenewalCharge(scope, stripe, renewal, outcome.value.id)
      : runBatch(
          scope.db,
          renewalFailedQuietly(scope, renewal, outcome.code ?? "card_declined", Date.now()),
        ).then(() => "declined" as const);
  if (pkg.status !== "active") return onVoid();
  // Every period is issued from the lines copied when it was sold: a later edit of the
  // template changes what is sold from then on, never what a member already has.
  const membership = { pkg, template: { credits: pkg.creditLines }, credits: m.credits };
  try {
    if (outcome.status === "done") {
      await runBatch(scope.db, renewalPaid(scope, membership, renewal, outcome.value.id, now));
      return "renewed";
    }
    await runBatch(
      scope.db,
      renewalDeclined(scope, membership, renewal, outcome.code ?? "card_declined", now),
    );
    return "declined";
  } catch (error) {
    if (isGuardFailure(error) && (await voidedMeanwhile(scope, renewal))) return onVoid();
    throw error;
  }
}
