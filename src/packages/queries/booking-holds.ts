import { asc, type SQLWrapper } from "drizzle-orm";
import { idIn, inSubquery } from "../../db/bounded";
import { customerPackageCredits, customerPackages, packageCreditUses } from "../../db/schema";
import { read } from "../../db/reads";
import { type Scope, whereByKey } from "../../db/scope";
import { creditsWhere, type PackageRecord, withCredits } from "./customer-packages";
import type { CreditUseRow } from "./credit-uses";

/** The credit uses of some bookings, with the packages (and all their credits) they hold. */
export interface HeldCredits {
  uses: CreditUseRow[];
  packages: PackageRecord[];
}

/** Nothing held: what a booking without credit uses reads. */
export const noneHeld: HeldCredits = { uses: [], packages: [] };

/**
 * The uses of the bookings a subquery names and their packages, as a read to
 * batch with the booking change's own read (three statements, whatever the
 * number of bookings; no round trip of its own): a change that ends the
 * bookings ends their uses in its batch, and a move checks their expiry.
 */
const isIdList = (ids: readonly string[] | SQLWrapper): ids is readonly string[] =>
  Array.isArray(ids);

export function heldCreditsRead(scope: Scope, bookingIds: readonly string[] | SQLWrapper) {
  const { db } = scope;
  const ofBookings = isIdList(bookingIds)
    ? idIn(packageCreditUses.bookingId, bookingIds)
    : inSubquery(packageCreditUses.bookingId, bookingIds);
  const uses = whereByKey(scope, packageCreditUses, ofBookings);
  const packageIds = db
    .select({ id: packageCreditUses.customerPackageId })
    .from(packageCreditUses)
    .where(uses);
  return read(
    [
      db
        .select()
        .from(packageCreditUses)
        .where(uses)
        .orderBy(asc(packageCreditUses.createdAt), asc(packageCreditUses.id)),
      db
        .select()
        .from(customerPackages)
        .where(whereByKey(scope, customerPackages, inSubquery(customerPackages.id, packageIds))),
      creditsWhere(scope, inSubquery(customerPackageCredits.customerPackageId, packageIds)),
    ],
    ([useRows, pkgs, credits]): HeldCredits => ({
      uses: useRows,
      packages: withCredits(pkgs, credits),
    }),
  );
}
