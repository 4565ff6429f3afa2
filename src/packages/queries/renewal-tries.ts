import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { guard } from "../../db/guards";
import { customerPackages, packageRenewals } from "../../db/schema";
import { type Scope, whereIn } from "../../db/scope";
import { renewalStillPending, type RenewalRow } from "./renewals";

/**
 * A shard's renewal tries whose answer is not written (through the (status,
 * updated_at) index), whatever their membership's state: a void membership is
 * never due, yet a try of it may have been charged. Pending tries older than
 * `since` are left to a person (the provider forgot their key); a refund is
 * repeated until answered. Oldest first.
 */
export const unfinishedTries = async (db: Database, since: number, limit: number) => {
  const columns = {
    id: packageRenewals.customerPackageId,
    workspaceId: packageRenewals.workspaceId,
  };
  const [pending, refunding] = await Promise.all([
    db
      .select(columns)
      .from(packageRenewals)
      .where(and(eq(packageRenewals.status, "pending"), gt(packageRenewals.updatedAt, since)))
      .orderBy(asc(packageRenewals.updatedAt))
      .limit(limit),
    db
      .select(columns)
      .from(packageRenewals)
      .where(eq(packageRenewals.status, "refund_pending"))
      .orderBy(asc(packageRenewals.updatedAt))
      .limit(limit),
  ]);
  return [...refunding, ...pending];
};

/**
 * A paid renewal's second guard: the membership is still active and still at
 * the period read (a refund of its order voids it at any moment, and then the
 * charge goes back instead of issuing credits on a void package).
 */
export const membershipStillBilled = (scope: Scope, m: { id: string; period: number }) =>
  guard(
    scope,
    sql`exists (select 1 from ${customerPackages} where ${customerPackages.id} = ${m.id} and ${customerPackages.status} = 'active' and ${customerPackages.period} = ${m.period})`,
  );

/** A try's answer on a void membership, written only while the try is pending at its attempt. */
const answerPendingTry = (
  scope: Scope,
  renewal: Pick<RenewalRow, "id" | "attempt">,
  set: Partial<typeof packageRenewals.$inferInsert>,
) => [
  renewalStillPending(scope, renewal),
  scope.db
    .update(packageRenewals)
    .set(set)
    .where(whereIn(scope, packageRenewals, eq(packageRenewals.id, renewal.id))),
];

/**
 * A try charged for a membership that is void: the try (still pending at its
 * attempt) becomes refund_pending with the payment to refund; nothing of the
 * membership changes and no money is booked (the paid batch never ran).
 */
export const renewalRefundPending = (
  scope: Scope,
  renewal: Pick<RenewalRow, "id" | "attempt">,
  paymentIntent: string,
  at: number,
) =>
  answerPendingTry(scope, renewal, {
    status: "refund_pending",
    providerRef: paymentIntent,
    updatedAt: at,
  });

/** A try declined for a membership that is void: only the try's answer, nothing told. */
export const renewalFailedQuietly = (
  scope: Scope,
  renewal: Pick<RenewalRow, "id" | "attempt">,
  reason: string,
  at: number,
) => answerPendingTry(scope, renewal, { status: "failed", failureReason: reason, updatedAt: at });

/** The provider's answer to a renewal's refund, written once (over refund_pending only). */
export const renewalRefundAnswered = (
  scope: Scope,
  id: string,
  set: {
    status: "refunded" | "refund_failed";
    refundRef: string | null;
    failureReason: string | null;
  },
  at: number,
) =>
  scope.db
    .update(packageRenewals)
    .set({ ...set, updatedAt: at })
    .where(
      whereIn(
        scope,
        packageRenewals,
        eq(packageRenewals.id, id),
        eq(packageRenewals.status, "refund_pending"),
      ),
    );

/**
 * A due membership the sweep cannot work on now moves out of the due query's
 * front to `when` (null: never, until a person puts it right), so the rest of
 * its shard is reached. Only while it is still due as read.
 */
export const postponeCharge = (
  scope: Scope,
  id: string,
  read: number,
  when: number | null,
  at: number,
) =>
  scope.db
    .update(customerPackages)
    .set({ nextChargeAt: when, updatedAt: at })
    .where(
      whereIn(
        scope,
        customerPackages,
        eq(customerPackages.id, id),
        eq(customerPackages.nextChargeAt, read),
      ),
    );
