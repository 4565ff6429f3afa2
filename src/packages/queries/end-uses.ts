import { eq, sql } from "drizzle-orm";
import { idIn } from "../../db/bounded";
import { customerPackageCredits, packageCreditUses } from "../../db/schema";
import { type Scope, whereByKey } from "../../db/scope";
import type { Statement } from "../../db/statement";
import type { UseEnd } from "../rules/settle-use";

/**
 * Ends held uses, one or many at once (a series' cancel ends one per
 * occurrence): the credit is `used` (complete, a late cancel, a no-show) or
 * `returned` (a cancel in time), in three statements whatever their number. Each use counts only
 * while it is still `reserved`, the credits' counts first (they read the
 * uses' states), so a repeat or a racing second end changes nothing.
 */
export function endUses(
  scope: Scope,
  ends: readonly { use: { id: string }; end: UseEnd }[],
  at: number,
): Statement[] {
  const { db } = scope;
  const all = ends.map((e) => e.use.id);
  const used = ends.filter((e) => e.end === "used").map((e) => e.use.id);
  const returned = ends.filter((e) => e.end === "returned").map((e) => e.use.id);
  if (all.length === 0) return [];
  const held = (ids: readonly string[]) =>
    sql`(select coalesce(sum(${packageCreditUses.count}), 0) from ${packageCreditUses} where ${packageCreditUses.creditId} = ${customerPackageCredits.id} and ${idIn(packageCreditUses.id, ids)} and ${packageCreditUses.state} = 'reserved')`;
  const settle = (ids: readonly string[], state: UseEnd) =>
    ids.length === 0
      ? []
      : [
          db
            .update(packageCreditUses)
            .set({ state, updatedAt: at })
            .where(
              whereByKey(
                scope,
                packageCreditUses,
                idIn(packageCreditUses.id, ids),
                eq(packageCreditUses.state, "reserved"),
              ),
            ),
        ];
  return [
    db
      .update(customerPackageCredits)
      .set({
        reserved: sql`${customerPackageCredits.reserved} - ${held(all)}`,
        ...(used.length > 0 ? { used: sql`${customerPackageCredits.used} + ${held(used)}` } : {}),
      })
      .where(
        whereByKey(
          scope,
          customerPackageCredits,
          sql`${customerPackageCredits.id} in (select ${packageCreditUses.creditId} from ${packageCreditUses} where ${idIn(packageCreditUses.id, all)} and ${packageCreditUses.state} = 'reserved')`,
        ),
      ),
    ...settle(used, "used"),
    ...settle(returned, "returned"),
  ];
}
