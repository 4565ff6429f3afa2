import { asc, count, eq } from "drizzle-orm";
import { inSubquery } from "../../db/bounded";
import { customerPackageCredits, customerPackages } from "../../db/schema";
import { type Scope, whereIn } from "../../db/scope";
import type { PageRequest } from "../../platform/pagination";
import { creditsWhere, type PackageRecord, withCredits } from "./customer-packages";

/**
 * A page of a customer's packages with their credits, oldest first, in one
 * round trip: the count, the page, and the credits of the same page (the
 * page's query as a subquery).
 */
export async function listCustomerPackages(
  scope: Scope,
  customerId: string,
  page: PageRequest,
): Promise<{ records: PackageRecord[]; total: number }> {
  const { db } = scope;
  const where = whereIn(scope, customerPackages, eq(customerPackages.customerId, customerId));
  const [totals, pkgs, credits] = await db.batch([
    db.select({ total: count() }).from(customerPackages).where(where),
    db
      .select()
      .from(customerPackages)
      .where(where)
      .orderBy(asc(customerPackages.createdAt), asc(customerPackages.id))
      .limit(page.perPage)
      .offset(page.offset),
    creditsWhere(
      scope,
      inSubquery(
        customerPackageCredits.customerPackageId,
        db
          .select({ id: customerPackages.id })
          .from(customerPackages)
          .where(where)
          .orderBy(asc(customerPackages.createdAt), asc(customerPackages.id))
          .limit(page.perPage)
          .offset(page.offset),
      ),
    ),
  ]);
  return { records: withCredits(pkgs, credits), total: totals[0]?.total ?? 0 };
}
