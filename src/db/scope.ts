import { and, eq, type SQL, sql } from "drizzle-orm";
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

/**
 * `whereIn` for rows found by their keys (an id list among `conditions`): the
 * workspace condition still filters every row, written `+workspace_id` so
 * SQLite may not use an index for it. Without statistics, SQLite prefers the
 * workspace's index to a list of ids and reads every row of the workspace (a
 * chain's whole catalogue) to return the few asked for.
 */
export function whereByKey(
  scope: Scope,
  table: { workspaceId: SQLiteColumn },
  ...conditions: (SQL | undefined)[]
): SQL {
  return and(sql`+${table.workspaceId} = ${scope.workspaceId}`, ...conditions) as SQL;
}
