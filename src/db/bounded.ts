import { getTableColumns, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Database } from "./client";
import { D1_MAX_PARAMS } from "./limits";

/**
 * D1 binds at most 100 parameters per statement ("too many SQL variables").
 * The rule of this codebase: no statement may bind a number of parameters that
 * grows with the request. Every id list goes through `idIn` (one JSON
 * parameter, expanded by `json_each`), and every multi-row insert through
 * `insertRows` (split into statements that each stay under the limit, placed
 * in the same batch so the write stays one transaction). The instrumented D1
 * wrapper refuses any statement above the limit, so a new query that breaks
 * the rule fails loudly in tests instead of in production with 10 elements.
 */

/** `column IN (…ids)` with one bound parameter whatever the number of ids. */
export const idIn = (column: SQLiteColumn | SQL, ids: readonly string[]): SQL =>
  sql`${column} in (select value from json_each(${JSON.stringify(ids)}))`;

/**
 * `column IN (subquery)`: the subquery's own parameters are fixed, whatever
 * it matches. The only way to write an IN list here besides `idIn`. drizzle's
 * `inArray` is not used at all (lint forbids importing it): given a JS array
 * it binds one parameter per element. A query builder embedded in `sql` is
 * rendered in parentheses.
 */
export const inSubquery = (column: SQLiteColumn, subquery: SQLWrapper): SQL =>
  sql`${column} in ${subquery}`;

/** Rows of `table` that fit in one INSERT: every column may bind a parameter. */
export const rowsPerInsert = (table: SQLiteTable) =>
  Math.max(1, Math.floor(D1_MAX_PARAMS / Object.keys(getTableColumns(table)).length));

/** One INSERT per chunk of rows, each under the parameter limit; none for no rows. */
export function insertRows<T extends SQLiteTable>(
  db: Database,
  table: T,
  rows: T["$inferInsert"][],
): BatchItem<"sqlite">[] {
  const size = rowsPerInsert(table);
  const statements: BatchItem<"sqlite">[] = [];
  for (let i = 0; i < rows.length; i += size) {
    statements.push(db.insert(table).values(rows.slice(i, i + size)));
  }
  return statements;
}
