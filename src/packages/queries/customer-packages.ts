import { and, asc, eq, gt, or, type SQL } from "drizzle-orm";
import { idIn } from "../../db/bounded";
import { customerPackageCredits, customerPackages } from "../../db/schema";
import { read } from "../../db/reads";
import { type Scope, whereByKey, whereIn } from "../../db/scope";
import type { CreditRow, CustomerPackageRow } from "../views/customer-package";

/** A customer package with every credit it was issued. */
export interface PackageRecord {
  pkg: CustomerPackageRow;
  credits: CreditRow[];
}

/** The credits of the packages `ofPackages` names (a condition on their package), in period order. */
export const creditsWhere = (scope: Scope, ofPackages: SQL) =>
  scope.db
    .select()
    .from(customerPackageCredits)
    .where(whereByKey(scope, customerPackageCredits, ofPackages))
    .orderBy(asc(customerPackageCredits.period), asc(customerPackageCredits.position));

const creditsOfIds = (scope: Scope, ids: readonly string[]) =>
  creditsWhere(scope, idIn(customerPackageCredits.customerPackageId, ids));

/** Groups credit rows under their packages, keeping the packages' order. */
export const withCredits = (pkgs: readonly CustomerPackageRow[], credits: readonly CreditRow[]) =>
  pkgs.map((pkg) => ({ pkg, credits: credits.filter((c) => c.customerPackageId === pkg.id) }));

/**
 * One customer package of the workspace and its credits, as a read to batch
 * with a request's other reads (null: unknown here, or another workspace's).
 */
export const customerPackageRead = (scope: Scope, id: string) =>
  read(
    [
      scope.db
        .select()
        .from(customerPackages)
        .where(whereByKey(scope, customerPackages, eq(customerPackages.id, id))),
      creditsOfIds(scope, [id]),
    ],
    ([pkgs, credits]): PackageRecord | null => {
      const pkg = pkgs[0];
      return pkg ? { pkg, credits } : null;
    },
  );

/** The packages (and credits) with these ids: an order's or a booking's. */
export const customerPackagesRead = (scope: Scope, ids: readonly string[]) =>
  read(
    [
      scope.db
        .select()
        .from(customerPackages)
        .where(whereByKey(scope, customerPackages, idIn(customerPackages.id, ids))),
      creditsOfIds(scope, ids),
    ],
    ([pkgs, credits]) => withCredits(pkgs, credits),
  );

/** What an order issued, in the order it issued them. */
export const packagesOfOrder = (scope: Scope, orderId: string) =>
  scope.db
    .select()
    .from(customerPackages)
    .where(whereIn(scope, customerPackages, eq(customerPackages.orderId, orderId)))
    .orderBy(asc(customerPackages.createdAt), asc(customerPackages.id));

/** A page of a customer's packages, oldest first, after the cursor `(createdAt, id)`. */
export const customerPackagesPage = (
  scope: Scope,
  customerId: string,
  page: { after: { createdAt: number; id: string } | null; limit: number },
) =>
  scope.db
    .select()
    .from(customerPackages)
    .where(
      whereIn(
        scope,
        customerPackages,
        eq(customerPackages.customerId, customerId),
        page.after
          ? or(
              gt(customerPackages.createdAt, page.after.createdAt),
              and(
                eq(customerPackages.createdAt, page.after.createdAt),
                gt(customerPackages.id, page.after.id),
              ),
            )
          : undefined,
      ),
    )
    .orderBy(asc(customerPackages.createdAt), asc(customerPackages.id))
    .limit(page.limit);

export { creditsOfIds };
