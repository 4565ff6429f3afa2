import { and, desc, eq, gt, or, type SQLWrapper, sql } from "drizzle-orm";
import { inSubquery } from "../../db/bounded";
import { customerPackageCredits, customerPackages, services } from "../../db/schema";
import { read } from "../../db/reads";
import { type Scope, whereByKey, whereIn } from "../../db/scope";
import { withCredits } from "./customer-packages";

/** The most a manage page lists: a customer's newest packages (a regular rarely holds more). */
export const SHOWN_PACKAGES = 20;

/**
 * The packages a customer can still see on their manage page: not void,
 * and either with credits not yet expired or a membership waiting on a
 * failed charge (its credits may all have lapsed). Newest first, at most
 * SHOWN_PACKAGES. `customerIds` is a subquery (the booking's customer), so
 * this runs in the caller's batch, with the credits and the names of the
 * services they pay for, in one round trip.
 */
export function shownPackagesRead(scope: Scope, customerIds: SQLWrapper, now: number) {
  const { db } = scope;
  const shown = whereIn(
    scope,
    customerPackages,
    inSubquery(customerPackages.customerId, customerIds),
    eq(customerPackages.status, "active"),
    or(gt(customerPackages.expiresAt, now), eq(customerPackages.pastDue, true)),
  );
  const ids = db
    .select({ id: customerPackages.id })
    .from(customerPackages)
    .where(shown)
    .orderBy(desc(customerPackages.createdAt), desc(customerPackages.id))
    .limit(SHOWN_PACKAGES);
  const creditsWhere = and(
    eq(customerPackageCredits.workspaceId, scope.workspaceId),
    inSubquery(customerPackageCredits.customerPackageId, ids),
  );
  return read(
    [
      db
        .select()
        .from(customerPackages)
        .where(whereByKey(scope, customerPackages, inSubquery(customerPackages.id, ids)))
        .orderBy(desc(customerPackages.createdAt), desc(customerPackages.id)),
      db.select().from(customerPackageCredits).where(creditsWhere),
      // The names of the services the shown credits pay for (json_each over each credit's list).
      db
        .select({ id: services.id, name: services.name })
        .from(services)
        .where(
          whereIn(
            scope,
            services,
            sql`${services.id} in (select j.value from ${customerPackageCredits}, json_each(${customerPackageCredits.serviceIds}) j where ${creditsWhere})`,
          ),
        ),
    ] as const,
    ([pkgs, credits, named]) => ({
      packages: withCredits(pkgs, credits),
      serviceNames: new Map(named.map((s) => [s.id, s.name])),
    }),
  );
}
