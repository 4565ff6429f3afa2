import { run } from "../db/reads";
import type { Scope } from "../db/scope";
import { ApiError, notFound } from "../platform/errors";
import { customerPackageRead, type PackageRecord } from "./queries/customer-packages";
import { stopRenewingAt } from "./queries/stop-renewing";

const ATTEMPTS = 3;

/**
 * Stops a membership renewing: it keeps what it was paid for until its
 * period's end and is never charged again. A charge that failed and is not
 * paid is given up with it (no longer past due: nothing more will be asked).
 * Cancelling again answers the same state. A package that never renews, or a
 * void one, is refused.
 */
export async function cancelMembership(scope: Scope, id: string): Promise<PackageRecord> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const record = await run(scope.db, customerPackageRead(scope, id));
    if (!record) throw notFound("Customer package");
    const { pkg } = record;
    if (pkg.renews === null)
      throw new ApiError(
        "not_a_membership",
        "This package does not renew: there is nothing to cancel.",
      );
    if (pkg.status === "void")
      throw new ApiError("package_void", "This membership is void (its order was refunded).");
    if (!pkg.renewing && !pkg.pastDue && pkg.nextChargeAt === null) return record;
    const at = Date.now();
    if (await stopRenewingAt(scope, pkg, at)) {
      const stopped = { renewing: false, nextChargeAt: null, pastDue: false };
      return { ...record, pkg: { ...pkg, ...stopped, updatedAt: at, version: pkg.version + 1 } };
    }
  }
  throw new ApiError("conflict", "The membership keeps changing; try again.");
}
