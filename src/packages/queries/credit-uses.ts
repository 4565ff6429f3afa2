import { and, eq, sql } from "drizzle-orm";
import { idIn, insertRows } from "../../db/bounded";
import { guard } from "../../db/guards";
import { customerPackageCredits, customerPackages, packageCreditUses } from "../../db/schema";
import { type Scope, whereByKey, whereIn } from "../../db/scope";
import type { Statement } from "../../db/statement";
import type { UseEnd } from "../rules/settle-use";

export type CreditUseRow = typeof packageCreditUses.$inferSelect;

/** A use to hold: the row `reserveCredits` writes, but for what the write itself sets. */
export type CreditUseAsk = Omit<CreditUseRow, "workspaceId" | "state" | "createdAt" | "updatedAt">;

/**
 * Holds the credits of a booking's (or a series', a cart's) booked services,
 * in its own batch and in a fixed number of statements whatever their number
 * (a series of 52 credit-paid occurrences would otherwise need 156 of D1's 100):
 * a guard that every package named is still active and not past due and
 * every credit has what all these uses take from it *when the batch runs*
 * (so of N bookings racing for the last credit exactly one commits), the
 * increments (which the table's CHECK also refuses past the total), and the
 * use rows (unique per booked service, so no retry holds a second credit for
 * it). Each list is one JSON parameter.
 */
export function reserveCredits(
  scope: Scope,
  uses: readonly CreditUseAsk[],
  at: number,
): Statement[] {
  if (uses.length === 0) return [];
  const { db, workspaceId } = scope;
  const needs = new Map<string, { c: string; p: string; n: number }>();
  for (const use of uses) {
    const need = needs.get(use.creditId) ?? { c: use.creditId, p: use.customerPackageId, n: 0 };
    need.n += use.count;
    needs.set(use.creditId, need);
  }
  const need = JSON.stringify([...needs.values()]);
  const asked = sql`(select sum(json_extract(j.value, '$.n')) from json_each(${need}) j where json_extract(j.value, '$.c') = ${customerPackageCredits.id})`;
  return [
    guard(
      scope,
      sql`not exists (select 1 from json_each(${need}) j where not exists (
        select 1 from ${customerPackageCredits} join ${customerPackages} on ${customerPackages.id} = ${customerPackageCredits.customerPackageId}
        where ${customerPackageCredits.id} = json_extract(j.value, '$.c') and ${customerPackages.id} = json_extract(j.value, '$.p')
          and ${customerPackages.status} = 'active' and ${customerPackages.pastDue} = 0
          and ${customerPackageCredits.total} - ${customerPackageCredits.used} - ${customerPackageCredits.reserved} >= json_extract(j.value, '$.n')))`,
    ),
    db
      .update(customerPackageCredits)
      .set({ reserved: sql`${customerPackageCredits.reserved} + ${asked}` })
      .where(
        whereByKey(
          scope,
          customerPackageCredits,
          sql`${customerPackageCredits.id} in (select json_extract(value, '$.c') from json_each(${need}))`,
        ),
      ),
    ...insertRows(
      db,
      packageCreditUses,
      uses.map((use) => ({
        ...use,
        workspaceId,
        state: "reserved" as const,
        createdAt: at,
        updatedAt: at,
      })),
    ),
  ];
}

/** `reserveCredits` of one use. */
export const reserveCredit = (scope: Scope, use: CreditUseAsk, at: number): Statement[] =>
  reserveCredits(scope, [use], at);

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
