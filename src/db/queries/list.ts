import { count, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { PageRequest } from "../../lib/pagination";
import type { Database } from "../client";

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
