import { and, eq, not, type SQL, sql } from "drizzle-orm";
import { batchGuards, workspaces } from "./schema";
import type { Scope } from "./scope";

/**
 * A batch statement that aborts the batch (D1 runs it as one transaction)
 * unless `condition` holds when it runs. This turns a read-then-write into a
 * compare-and-set: the check happens inside the transaction that writes.
 * The workspace's own row serves as the one-row source of the INSERT … SELECT.
 */
export function guard(scope: Scope, condition: SQL) {
  const { db } = scope;
  return db.insert(batchGuards).select(
    db
      .select({ reason: sql<string>`'guard'`.as("reason") })
      .from(workspaces)
      .where(and(eq(workspaces.id, scope.workspaceId), not(condition))),
  );
}
