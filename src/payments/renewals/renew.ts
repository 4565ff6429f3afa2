import type Stripe from "stripe";
import { runBatch } from "../../db/client";
import { run } from "../../db/reads";
import type { Scope } from "../../db/scope";
import {
  chargeNextAt,
  claimRenewal,
  claimRetry,
  membershipRead,
  type RenewalRow,
  renewalOf,
  stopCharging,
} from "../../packages/queries/renewals";
import { renewalDeclined, renewalPaid } from "../../packages/renewal/answer";
import { nextChargeAfter, periodToCharge } from "../../packages/rules";
import type { CustomerPackageRow } from "../../packages/views/customer-package";
import { failpoint, rendezvous } from "../../platform/failpoints";
import { log } from "../../platform/log";
import { KEY_LIFETIME_MS } from "../reconcile";
import { chargeRenewal } from "./charge";

export type Renewed = "renewed" | "declined" | "pending" | "stopped" | "skipped";

const rowsOf = <T>(result: unknown): T[] => (Array.isArray(result) ? (result as T[]) : []);

/**
 * The try of `period` the sweep makes now: the first (claimed by insert), the
 * next after a decline (claimed over the failed one, a new key), or the one
 * pending (its answer was lost, or another sweep is making it: the same key).
 * Null when the period is paid already.
 */
async function tryOf(
  scope: Scope,
  pkg: { id: string; price: number; currency: string },
  period: number,
  rows: readonly RenewalRow[],
): Promise<RenewalRow | null> {
  const at = Date.now();
  let row = rows.find((r) => r.period === period) ?? null;
  if (!row) {
    const [claimed] = await runBatch(scope.db, [
      claimRenewal(scope, {
        id: crypto.randomUUID(),
        workspaceId: scope.workspaceId,
        customerPackageId: pkg.id,
        period,
        amount: pkg.price,
        currency: pkg.currency,
        status: "pending",
        attempt: 1,
        createdAt: at,
        updatedAt: at,
      }),
    ]);
    row = rowsOf<RenewalRow>(claimed)[0] ?? (await renewalOf(scope, pkg.id, period))[0] ?? null;
  } else if (row.status === "failed") {
    const [claimed] = await runBatch(scope.db, [claimRetry(scope, row, at)]);
    row = rowsOf<RenewalRow>(claimed)[0] ?? (await renewalOf(scope, pkg.id, period))[0] ?? null;
  }
  return row && row.status === "pending" ? row : null;
}

/**
 * What a membership with no try pending is due at `now`: nothing (it was
 * cancelled and its period ended, or it is paid already: its next charge is
 * put right), or the try of the period `now` falls in.
 */
async function nextTry(
  scope: Scope,
  m: { pkg: CustomerPackageRow; renewals: RenewalRow[] },
  now: number,
): Promise<RenewalRow | "stopped" | "skipped"> {
  const { pkg } = m;
  const billing = { startsAt: pkg.startsAt, period: pkg.period, renewing: pkg.renewing };
  if (!pkg.renewing) {
    // Cancelled: it runs to its period's end and expires; nothing more is charged.
    await runBatch(scope.db, [stopCharging(scope, pkg.id, Date.now())]);
    return "stopped";
  }
  const period = periodToCharge(billing, now);
  if (period === null) {
    await runBatch(scope.db, [chargeNextAt(scope, pkg.id, nextChargeAfter(billing), Date.now())]);
    return "skipped";
  }
  return (await tryOf(scope, pkg, period, m.renewals)) ?? "skipped";
}

/**
 * One membership's renewal at `now`: the period `now` falls in is charged on
 * the saved card and its answer written in one batch (paid: the period's
 * credits; declined: past due, tried again later). Without an answer the try
 * stays pending and the next sweep repeats it under the same key.
 */
export async function renewMembership(
  scope: Scope,
  stripe: Stripe,
  id: string,
  now: number,
): Promise<Renewed> {
  const m = await run(scope.db, membershipRead(scope, id));
  if (!m || m.pkg.status !== "active" || m.pkg.nextChargeAt === null || m.pkg.nextChargeAt > now)
    return "skipped";
  const { pkg } = m;
  if (!pkg.providerCustomer || !pkg.paymentMethod) {
    log("error", "a membership due has no card", { membership: pkg.id });
    return "skipped";
  }
  // A try still unanswered (a lost answer, another sweep making it, or no answer until the
  // next period began, or a cancel came meanwhile) is finished first, under its own key: the
  // provider may have charged it.
  const renewal = m.renewals.find((r) => r.status === "pending") ?? (await nextTry(scope, m, now));
  if (renewal === "stopped" || renewal === "skipped") return renewal;
  // The provider keeps a key about a day: a try unanswered longer could be charged twice.
  if (renewal.updatedAt < Date.now() - KEY_LIFETIME_MS) {
    log("error", "a renewal unanswered for a day needs a person", { renewal: renewal.id });
    return "skipped";
  }
  // Two sweeps at once can be made to meet here: both then call, under the one key.
  await rendezvous("packages.renewal.before_charge");
  const outcome = await chargeRenewal(stripe, renewal, {
    providerCustomer: pkg.providerCustomer,
    paymentMethod: pkg.paymentMethod,
  });
  // Between the provider's answer and our write: a test stops here to lose the answer.
  failpoint("packages.renewal.answered", pkg.id);
  // Every period is issued from the lines copied when it was sold: a later edit of the
  // template changes what is sold from then on, never what a member already has.
  const membership = { pkg, template: { credits: pkg.creditLines }, credits: m.credits };
  if (outcome.status === "unknown") {
    log("warn", "renewal charge unanswered; the next sweep repeats it", {
      membership: pkg.id,
      reason: outcome.reason,
    });
    return "pending";
  }
  if (outcome.status === "done") {
    await runBatch(scope.db, renewalPaid(scope, membership, renewal, outcome.value.id, now));
    return "renewed";
  }
  await runBatch(
    scope.db,
    renewalDeclined(scope, membership, renewal, outcome.code ?? "card_declined", now),
  );
  return "declined";
}
