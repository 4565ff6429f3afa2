import { eq } from "drizzle-orm";
import { bookings } from "../../db/schema";
import type { Read } from "../../db/reads";
import { type Scope, whereIn } from "../../db/scope";
import { shownPackagesRead } from "../../packages/queries/shown-packages";
import { type ManagedPackage, renderManagedPackage } from "../../packages/views/managed-package";

/**
 * The packages of a managed booking's customer, as its manage page shows
 * them: by the booking id alone (the customer is a subquery on it), so it
 * runs in the booking's own batch.
 */
export function managedPackagesRead(
  scope: Scope,
  bookingId: string,
  now: number,
): Read<ManagedPackage[]> {
  const customer = scope.db
    .select({ id: bookings.customerId })
    .from(bookings)
    .where(whereIn(scope, bookings, eq(bookings.id, bookingId)));
  const shown = shownPackagesRead(scope, customer, now);
  return {
    statements: shown.statements,
    parse: (rows) => {
      const { packages, serviceNames } = shown.parse(rows);
      return packages.flatMap(({ pkg, credits }) => {
        const rendered = renderManagedPackage(pkg, credits, serviceNames, now);
        return rendered ? [rendered] : [];
      });
    },
  };
}
