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
import { postponeCharge } from "../../packages/queries/renewal-tries";
import { nextChargeAfter, periodToCharge, RETRY_AFTER_MS } from "../../packages/rules";
import type { CustomerPackageRow } from "../../packages/views/customer-package";
import { log } from "../../platform/log";
import { KEY_LIFETIME_MS } from "../reconcile";
import { finishTry, type Renewed } from "./finish-try";
import { finishRenewalRefund } from "./refund";

export type { Renewed } from "./finish-try";

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
  const renewal = await tryOf(scope, pkg, period, m.renewals);
  if (renewal) return renewal;
  // The period's try is answered but the membership does not say so: a person looks; the
  // rest of the shard goes on.
  log("error", "a membership due has its period's try answered", { membership: pkg.id, period });
  await postpone(scope, pkg, now + RETRY_AFTER_MS);
  return "skipped";
}

/** Out of the due query's front (see postponeCharge), so the shard's other renewals go on. */
const postpone = (scope: Scope, pkg: CustomerPackageRow, when: number | null) =>
  pkg.nextChargeAt === null
    ? Promise.resolve()
    : runBatch(scope.db, [postponeCharge(scope, pkg.id, pkg.nextChargeAt, when, Date.now())]);

/**
 * One membership's renewal at `now`: a refund left unanswered is repeated;
 * a try left unanswered is finished first, whatever the membership's state
 * (the provider may have charged it); else, when due, the period `now` falls
 * in is charged on the saved card and its answer written in one batch (paid:
 * the period's credits; declined: past due, tried again later; void by then:
 * refunded). Without an answer the try stays pending and the next sweep
 * repeats it under the same key. A due membership that cannot be worked on
 * (no card, a try unanswered too long) has its next charge moved.
 */
export async function renewMembership(
  scope: Scope,
  stripe: Stripe,
  id: string,
  now: number,
): Promise<Renewed> {
  const m = await run(scope.db, membershipRead(scope, id));
  if (!m) return "skipped";
  const { pkg } = m;
  const refunding = m.renewals.find((r) => r.status === "refund_pending");
  if (refunding) return finishRenewalRefund(scope, stripe, refunding);
  const active = pkg.status === "active";
  const due = active && pkg.nextChargeAt !== null && pkg.nextChargeAt <= now;
  // A try still unanswered (a lost answer, another sweep making it, no answer until the next
  // period began, a cancel or a refund of the order came meanwhile) is finished first, under
  // its own key.
  const pending = m.renewals.find((r) => r.status === "pending");
  if (!pending && !due) return "skipped";
  if (!pkg.providerCustomer || !pkg.paymentMethod) {
    log("error", "a membership due has no card; it is not charged until a person sees to it", {
      membership: pkg.id,
    });
    await postpone(scope, pkg, null);
    return "skipped";
  }
  const renewal = pending ?? (await nextTry(scope, m, now));
  if (renewal === "stopped" || renewal === "skipped") return renewal;
  // The provider keeps a key about a day: a try unanswered longer could be charged twice.
  if (renewal.updatedAt < Date.now() - KEY_LIFETIME_MS) {
    log("error", "a renewal unanswered for a day needs a person", { renewal: renewal.id });
    await postpone(scope, pkg, now + RETRY_AFTER_MS);
    return "skipped";
  }
  return finishTry(scope, stripe, m, renewal, now);
}
