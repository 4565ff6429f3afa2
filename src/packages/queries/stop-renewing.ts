import { and, eq } from "drizzle-orm";
import { customerPackages } from "../../db/schema";
import { type Scope, whereByKey } from "../../db/scope";

/**
 * A membership stops renewing, at the version read (compare-and-set): false
 * when the row changed meanwhile (a renewal, a refund), so the caller reads again.
 */
export async function stopRenewingAt(
  scope: Scope,
  read: { id: string; version: number },
  at: number,
): Promise<boolean> {
  const rows = await scope.db
    .update(customerPackages)
    .set({
      renewing: false,
      nextChargeAt: null,
      pastDue: false,
      updatedAt: at,
      version: read.version + 1,
    })
    .where(
      whereByKey(
        scope,
        customerPackages,
        and(eq(customerPackages.id, read.id), eq(customerPackages.version, read.version)),
      ),
    )
    .returning({ id: customerPackages.id });
  return rows.length > 0;
}
