import { asc, count, eq } from "drizzle-orm";
import { customerPackages } from "../../db/schema";
import { type Scope, whereIn } from "../../db/scope";
import type { PageRequest } from "../../platform/pagination";
import { creditsOfIds, type PackageRecord, withCredits } from "./customer-packages";

/**
 * A page of a customer's packages with their credits, oldest first: the
 * count and the page in one round trip, the page's credits in a second.
 */
export async function listCustomerPackages(
  scope: Scope,
  customerId: string,
  page: PageRequest,
): Promise<{ records: PackageRecord[]; total: number }> {
  const where = whereIn(scope, customerPackages, eq(customerPackages.customerId, customerId));
  const [totals, pkgs] = await scope.db.batch([
    scope.db.select({ total: count() }).from(customerPackages).where(where),
    scope.db
      .select()
      .from(customerPackages)
      .where(where)
      .orderBy(asc(customerPackages.createdAt), asc(customerPackages.id))
      .limit(page.perPage)
      .offset(page.offset),
  ]);
  const credits =
    pkgs.length > 0
      ? await creditsOfIds(
          scope,
          pkgs.map((p) => p.id),
        )
      : [];
  return { records: withCredits(pkgs, credits), total: totals[0]?.total ?? 0 };
}
