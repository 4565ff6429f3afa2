import { and, asc, eq, lte, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { guard } from "../../db/guards";
import {
  accounts,
  accountTransactions,
  customerPackageCredits,
  customerPackages,
  packageRenewals,
} from "../../db/schema";
import { read } from "../../db/reads";
import { type Scope, whereIn } from "../../db/scope";
import { ONLINE_ACCOUNT_NAME } from "../../catalogue/rules/online-account";

export type RenewalRow = typeof packageRenewals.$inferSelect;

/**
 * A shard's memberships whose charge is due at `now` (any workspace: the
 * sweep then works on each through its own handle), soonest first.
 */
export const dueMemberships = (db: Database, now: number, limit: number) =>
  db
    .select({ id: customerPackages.id, workspaceId: customerPackages.workspaceId })
    .from(customerPackages)
    .where(and(lte(customerPackages.nextChargeAt, now), eq(customerPackages.status, "active")))
    .orderBy(asc(customerPackages.nextChargeAt))
    .limit(limit);

/** A membership with what its renewal needs: its credits and its renewal rows. */
export const membershipRead = (scope: Scope, id: string) =>
  read(
    [
      scope.db
        .select()
        .from(customerPackages)
        .where(whereIn(scope, customerPackages, eq(customerPackages.id, id))),
      scope.db
        .select()
        .from(customerPackageCredits)
        .where(
          whereIn(scope, customerPackageCredits, eq(customerPackageCredits.customerPackageId, id)),
        ),
      scope.db
        .select()
        .from(packageRenewals)
        .where(whereIn(scope, packageRenewals, eq(packageRenewals.customerPackageId, id))),
    ],
    ([pkg, credits, renewals]) => (pkg[0] ? { pkg: pkg[0], credits, renewals } : null),
  );

/** A period's first try: of two sweeps at once one inserts it, the other finds it. */
export const claimRenewal = (scope: Scope, row: typeof packageRenewals.$inferInsert) =>
  scope.db
    .insert(packageRenewals)
    .values(row)
    .onConflictDoNothing({
      target: [packageRenewals.customerPackageId, packageRenewals.period],
    })
    .returning();

/** The next try after a decline (a new Idempotency-Key): only over the failed try read. */
export const claimRetry = (scope: Scope, failed: RenewalRow, at: number) =>
  scope.db
    .update(packageRenewals)
    .set({ status: "pending", attempt: failed.attempt + 1, failureReason: null, updatedAt: at })
    .where(
      whereIn(
        scope,
        packageRenewals,
        eq(packageRenewals.id, failed.id),
        eq(packageRenewals.status, "failed"),
        eq(packageRenewals.attempt, failed.attempt),
      ),
    )
    .returning();

/** The renewal row of a period, as it is now (after a lost claim). */
export const renewalOf = (scope: Scope, customerPackageId: string, period: number) =>
  scope.db
    .select()
    .from(packageRenewals)
    .where(
      whereIn(
        scope,
        packageRenewals,
        eq(packageRenewals.customerPackageId, customerPackageId),
        eq(packageRenewals.period, period),
      ),
    );

/**
 * The head of a renewal's answer batch: the try is still pending at the
 * attempt whose answer this is. Whoever writes an answer first writes it; a
 * second sweep (or a repeat after a lost answer) changes nothing.
 */
export const renewalStillPending = (scope: Scope, renewal: Pick<RenewalRow, "id" | "attempt">) =>
  guard(
    scope,
    sql`exists (select 1 from ${packageRenewals} where ${packageRenewals.id} = ${renewal.id} and ${packageRenewals.status} = 'pending' and ${packageRenewals.attempt} = ${renewal.attempt})`,
  );

export const answerRenewal = (
  scope: Scope,
  id: string,
  set: Pick<RenewalRow, "status" | "providerRef" | "failureReason" | "updatedAt">,
) =>
  scope.db
    .update(packageRenewals)
    .set(set)
    .where(whereIn(scope, packageRenewals, eq(packageRenewals.id, id)));

/** A membership's billing after an answer; a cancel meanwhile (renewing off) leaves nothing to charge. */
export const setBilling = (
  scope: Scope,
  id: string,
  set: { period?: number; pastDue: boolean; expiresAt?: number; nextChargeAt: number | null },
  at: number,
) =>
  scope.db
    .update(customerPackages)
    .set({
      ...(set.period === undefined ? {} : { period: set.period }),
      ...(set.expiresAt === undefined ? {} : { expiresAt: set.expiresAt }),
      pastDue: set.pastDue,
      nextChargeAt: sql`case when ${customerPackages.renewing} then ${set.nextChargeAt} else null end`,
      updatedAt: at,
      version: sql`${customerPackages.version} + 1`,
    })
    .where(whereIn(scope, customerPackages, eq(customerPackages.id, id)));

/** A membership that does not renew and whose period ended: nothing is due any more. */
export const stopCharging = (scope: Scope, id: string, at: number) =>
  scope.db
    .update(customerPackages)
    .set({ nextChargeAt: null, updatedAt: at })
    .where(
      whereIn(
        scope,
        customerPackages,
        eq(customerPackages.id, id),
        eq(customerPackages.renewing, false),
      ),
    );

/** A renewing membership's next charge put right (its period is paid already). */
export const chargeNextAt = (scope: Scope, id: string, nextChargeAt: number | null, at: number) =>
  scope.db
    .update(customerPackages)
    .set({ nextChargeAt, updatedAt: at })
    .where(whereIn(scope, customerPackages, eq(customerPackages.id, id)));

/** The location's online account (the oldest, should there be two), as a subquery. */
const onlineAccountOf = (scope: Scope, locationId: string) =>
  scope.db
    .select({ id: accounts.id })
    .from(accounts)
    .where(
      whereIn(scope, accounts, eq(accounts.locationId, locationId), eq(accounts.type, "online")),
    )
    .orderBy(asc(accounts.createdAt), asc(accounts.id))
    .limit(1);

/**
 * A renewal's money on the selling location's online account, with a
 * transaction row naming no order (a renewal is no order's): the account is
 * made first should the location have none.
 */
export function renewalMoney(scope: Scope, locationId: string, amount: number, at: number) {
  const { db, workspaceId } = scope;
  const account = sql`(${onlineAccountOf(scope, locationId)})`;
  return [
    db.insert(accounts).select(
      sql`select ${crypto.randomUUID()}, ${workspaceId}, ${locationId}, ${ONLINE_ACCOUNT_NAME}, 'online', 0, ${at}
            where not exists ${onlineAccountOf(scope, locationId)}`,
    ),
    db
      .update(accounts)
      .set({ balance: sql`${accounts.balance} + ${amount}` })
      .where(sql`${accounts.id} = ${account}`),
    db
      .insert(accountTransactions)
      .select(
        sql`select ${crypto.randomUUID()}, ${workspaceId}, ${account}, ${amount}, null, null, ${at}`,
      ),
  ];
}
