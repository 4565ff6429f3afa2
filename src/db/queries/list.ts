import { asc, count, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { PageRequest } from "../../platform/pagination";
import type { Database } from "../client";
import { type Scope, whereIn } from "../scope";

/**
 * A page and the total behind it in one D1 round trip (a batch), ordered by
 * the given columns so pages never shuffle between requests.
 */
export async function listPage<T extends SQLiteTable>(
  db: Database,
  table: T,
  where: SQL,
  orderBy: (SQL | SQLiteColumn)[],
  page: PageRequest,
) {
  const [totals, rows] = await db.batch([
    db
      .select({ total: count() })
      .from(table as SQLiteTable)
      .where(where),
    db
      .select()
      .from(table as SQLiteTable)
      .where(where)
      .orderBy(...orderBy)
      .limit(page.perPage)
      .offset(page.offset),
  ]);
  return { rows: rows as T["$inferSelect"][], total: totals[0]?.total ?? 0 };
}

/** A workspace's rows of one table, a page in creation order (created_at, id). */
export function listInWorkspace<
  T extends SQLiteTable & { workspaceId: SQLiteColumn; createdAt: SQLiteColumn; id: SQLiteColumn },
>(scope: Scope, table: T, page: PageRequest, ...conditions: (SQL | undefined)[]) {
  return listPage(
    scope.db,
    table,
    whereIn(scope, table, ...conditions),
    [asc(table.createdAt), asc(table.id)],
    page,
  );
}
