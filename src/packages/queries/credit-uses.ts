import { and, eq, sql } from "drizzle-orm";
import { idIn } from "../../db/bounded";
import { guard } from "../../db/guards";
import { customerPackageCredits, customerPackages, packageCreditUses } from "../../db/schema";
import { type Scope, whereByKey, whereIn } from "../../db/scope";
import type { Statement } from "../../db/statement";
import type { UseEnd } from "../rules/settle-use";

export type CreditUseRow = typeof packageCreditUses.$inferSelect;

/**
 * Holds `count` of a credit for a booked service, in the booking's own batch:
 * a guard that the package is still active, not past due, and the credit has
 * that many left *when the batch runs* (so of N bookings racing for the last
 * credit exactly one commits), the increment (which the table's CHECK also
 * refuses past the total), and the use row (unique per booked service, so no
 * retry holds a second credit for it).
 */
export function reserveCredit(
  scope: Scope,
  use: Omit<CreditUseRow, "workspaceId" | "state" | "createdAt" | "updatedAt">,
  at: number,
): Statement[] {
  const { db, workspaceId } = scope;
  return [
    guard(
      scope,
      sql`exists (select 1 from ${customerPackages} where ${customerPackages.id} = ${use.customerPackageId} and ${customerPackages.status} = 'active' and ${customerPackages.pastDue} = 0)
        and exists (select 1 from ${customerPackageCredits} where ${customerPackageCredits.id} = ${use.creditId} and ${customerPackageCredits.customerPackageId} = ${use.customerPackageId} and ${customerPackageCredits.total} - ${customerPackageCredits.used} - ${customerPackageCredits.reserved} >= ${use.count})`,
    ),
    db
      .update(customerPackageCredits)
      .set({ reserved: sql`${customerPackageCredits.reserved} + ${use.count}` })
      .where(
        whereByKey(scope, customerPackageCredits, eq(customerPackageCredits.id, use.creditId)),
      ),
    db.insert(packageCreditUses).values({
      ...use,
      workspaceId,
      state: "reserved",
      createdAt: at,
      updatedAt: at,
    }),
  ];
}

/**
 * Ends a held use: the credit is `used` (complete, a late cancel, a no-show)
 * or `returned` (a cancel in time). Each statement acts only while the use is
 * still `reserved`, the credit's counts first (they read the use's state), so
 * a repeat or a racing second end changes nothing.
 */
export function endUse(
  scope: Scope,
  use: Pick<CreditUseRow, "id" | "creditId" | "count">,
  end: UseEnd,
  at: number,
): Statement[] {
  const { db } = scope;
  const stillHeld = sql`exists (select 1 from ${packageCreditUses} where ${packageCreditUses.id} = ${use.id} and ${packageCreditUses.state} = 'reserved')`;
  return [
    db
      .update(customerPackageCredits)
      .set({
        reserved: sql`${customerPackageCredits.reserved} - ${use.count}`,
        ...(end === "used" ? { used: sql`${customerPackageCredits.used} + ${use.count}` } : {}),
      })
      .where(
        and(
          whereByKey(scope, customerPackageCredits, eq(customerPackageCredits.id, use.creditId)),
          stillHeld,
        ),
      ),
    db
      .update(packageCreditUses)
      .set({ state: end, updatedAt: at })
      .where(
        whereIn(
          scope,
          packageCreditUses,
          eq(packageCreditUses.id, use.id),
          eq(packageCreditUses.state, "reserved"),
        ),
      ),
  ];
}

/** The uses a booking holds or held, by its id. */
export const usesOfBookings = (scope: Scope, bookingIds: readonly string[]) =>
  scope.db
    .select()
    .from(packageCreditUses)
    .where(whereByKey(scope, packageCreditUses, idIn(packageCreditUses.bookingId, bookingIds)));
