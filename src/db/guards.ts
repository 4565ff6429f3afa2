import { and, eq, not, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { batchGuards, holdFences, workspaces } from "./schema";
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

/** A calendar hold's write may still commit: nobody settled (fenced) the hold yet. */
export const holdNotFenced = (holdId: string) =>
  sql`not exists (select 1 from ${holdFences} where ${holdFences.holdId} = ${holdId})`;

interface Versioned {
  id: SQLiteColumn;
  version: SQLiteColumn;
}

/** The row is still at the version the write read (every write bumps it). */
export const atVersion = (
  table: Versioned & { _: { name: string } },
  id: string,
  version: number,
) =>
  sql`exists (select 1 from ${table} where ${table.id} = ${id} and ${table.version} = ${version})`;
