import { sql } from "drizzle-orm";
import { insertRows } from "../../db/bounded";
import { guard } from "../../db/guards";
import { customerPackageCredits, customerPackages, packageCreditUses } from "../../db/schema";
import { type Scope, whereByKey } from "../../db/scope";
import type { Statement } from "../../db/statement";

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
