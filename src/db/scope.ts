import { and, eq, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Database } from "./client";

/**
 * Every query of a tenant's data goes through a Scope: its `where` always
 * includes the workspace condition, so an unscoped read cannot be written by accident.
 */
export interface Scope {
  db: Database;
  workspaceId: string;
}

export function whereIn(
  scope: Scope,
  table: { workspaceId: SQLiteColumn },
  ...conditions: (SQL | undefined)[]
): SQL {
  return and(eq(table.workspaceId, scope.workspaceId), ...conditions) as SQL;
}
