import { getTableColumns, getTableName, is, SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable, SQLiteUpdateSetSource } from "drizzle-orm/sqlite-core";
import type { Database } from "./client";
import { D1_MAX_PARAMS } from "./limits";
import type { Statement } from "./statement";

/**
 * D1 binds at most 100 parameters per statement ("too many SQL variables").
 * The rule of this codebase: no statement may bind a number of parameters that
 * grows with the request. Every id list goes through `idIn` (one JSON
 * parameter, expanded by `json_each`), and every multi-row insert through
 * `insertRows` (one JSON parameter per chunk of ~90 KB, placed in the same
 * batch so the write stays one transaction). The instrumented D1
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

/**
 * Bytes of rows one JSON insert carries: its one parameter stays under D1's
 * 100 KB per statement with room to spare.
 */
export const JSON_INSERT_BYTES = 90_000;

/**
 * Inserts `rows`: one plain INSERT when they fit in one (every column a
 * parameter, under D1's 100); otherwise one `INSERT … SELECT … FROM
 * json_each(?)` per ~90 KB of rows, each binding a single JSON parameter. A
 * write of 1,100 calendar entries is then 4 statements, not 138: D1 counts
 * every statement of a batch, and a batch is at most 100. None for no rows.
 */
export function insertRows<T extends SQLiteTable>(
  db: Database,
  table: T,
  rows: T["$inferInsert"][],
  returning?: Returning,
): Statement[] {
  if (rows.length === 0) return [];
  if (rows.length <= rowsPerInsert(table)) {
    const insert = db.insert(table).values(rows);
    return [returning ? insert.returning(returning) : insert];
  }
  return jsonInserts(db, table, rows, {}, returning);
}

/** RETURNING fields of an insert: what the statement says about the rows it wrote. */
type Returning = Record<string, SQLiteColumn | SQL | SQL.Aliased>;

type Cell = string | number | null;

/**
 * Columns a JSON insert computes in SQL instead of taking from the row: a
 * function of the row's position among all the rows inserted (an SQL
 * expression, 0 for the first), e.g. a number drawn from a counter bumped
 * earlier in the same batch.
 */
export type ComputedColumns<T extends SQLiteTable> = Partial<
  Record<keyof T["$inferInsert"] & string, (position: SQL) => SQL>
>;

/**
 * Inserts `rows` as `insertRows` does, always as JSON inserts, with the
 * `computed` columns written by SQL (see `ComputedColumns`).
 */
export const insertComputedRows = <T extends SQLiteTable>(
  db: Database,
  table: T,
  rows: T["$inferInsert"][],
  computed: ComputedColumns<T>,
): Statement[] => (rows.length === 0 ? [] : jsonInserts(db, table, rows, computed));

/** Rows as JSON arrays of driver values, expanded by SQLite in one statement per chunk. */
function jsonInserts<T extends SQLiteTable>(
  db: Database,
  table: T,
  rows: T["$inferInsert"][],
  computed: ComputedColumns<T> = {},
  returning?: Returning,
): Statement[] {
  // Every column drizzle's INSERT … SELECT lists, in its order; a row's missing value takes
  // the column's default as drizzle's own INSERT would (no column here has an SQL default).
  const columns = Object.entries(getTableColumns(table)).filter(
    ([, c]) => !(c as unknown as { shouldDisableInsert(): boolean }).shouldDisableInsert(),
  );
  const cells = (row: Record<string, unknown>): Cell[] =>
    columns.map(([key, column]) => {
      const given = row[key];
      const value =
        given !== undefined
          ? given
          : (column.defaultFn?.() ?? column.onUpdateFn?.() ?? column.default ?? null);
      if (value === null) return null;
      if (is(value, SQL)) throw new Error(`insertRows: ${column.name} has an SQL default`);
      const driver = column.mapToDriverValue(value);
      if (typeof driver === "boolean") return driver ? 1 : 0;
      if (typeof driver !== "string" && typeof driver !== "number")
        throw new Error(`insertRows: ${column.name} is not a text or number value`);
      return driver;
    });
  const byKey: Partial<Record<string, (position: SQL) => SQL>> = computed;
  // A chunk's json_each counts its rows from 0: `offset` rows went in earlier chunks.
  const values = (offset: number) =>
    sql.join(
      columns.map(([key], i) => {
        const compute = byKey[key];
        return compute
          ? compute(sql`(key + ${sql.raw(String(offset))})`)
          : sql.raw(`json_extract(value, '$[${i}]')`);
      }),
      sql`, `,
    );
  let inserted = 0;
  const insert = (chunk: string[]) => {
    const statement = db
      .insert(table)
      .select(sql`select ${values(inserted)} from json_each(${`[${chunk.join(",")}]`})`);
    inserted += chunk.length;
    return returning ? statement.returning(returning) : statement;
  };

  const encoder = new TextEncoder();
  const statements: Statement[] = [];
  let chunk: string[] = [];
  let bytes = 0;
  for (const row of rows) {
    const json = JSON.stringify(cells(row as Record<string, unknown>));
    const size = encoder.encode(json).length + 1;
    if (chunk.length > 0 && bytes + size > JSON_INSERT_BYTES) {
      statements.push(insert(chunk));
      chunk = [];
      bytes = 0;
    }
    chunk.push(json);
    bytes += size;
  }
  statements.push(insert(chunk));
  return statements;
}

/** A column's value as D1 stores it (booleans as 0/1, JSON columns as text). */
function driverCell(column: SQLiteColumn, value: unknown): Cell {
  if (value === null || value === undefined) return null;
  if (is(value, SQL)) throw new Error(`updateEach: ${column.name} is given as SQL`);
  const driver = column.mapToDriverValue(value);
  if (typeof driver === "boolean") return driver ? 1 : 0;
  if (typeof driver !== "string" && typeof driver !== "number")
    throw new Error(`updateEach: ${column.name} is not a text or number value`);
  return driver;
}

/** A table with a text primary key `id`, as `updateEach` takes it. */
type WithId = SQLiteTable & { id: SQLiteColumn };

/**
 * Updates many rows, each by its id and each with its own values, in as few
 * statements as D1 allows: rows that set the same columns share one `UPDATE`
 * whose every column reads the row's value from one JSON parameter
 * (`json_each`), chunked so the parameters bound stay under ~90 KB as `insertRows`'. A change of 52 bookings
 * is one statement, not 52 (D1 counts every statement of a batch, and a
 * batch is at most 100). `where(ids)` narrows the rows (the workspace, a
 * status) given the id condition of the chunk; `also` sets the same value
 * on every row (a version bumped, a time).
 */
export function updateEach<T extends WithId>(
  db: Database,
  table: T,
  rows: readonly ({ id: string } & Partial<T["$inferInsert"]>)[],
  options: {
    where: (ids: SQL) => SQL;
    also?: SQLiteUpdateSetSource<T>;
  },
): Statement[] {
  const columns = getTableColumns(table) as Record<string, SQLiteColumn>;
  const groups = new Map<string, { keys: string[]; rows: (typeof rows)[number][] }>();
  for (const row of rows) {
    const keys = Object.keys(row)
      .filter((k) => k !== "id" && (row as Record<string, unknown>)[k] !== undefined)
      .sort();
    const name = keys.join(",");
    const group = groups.get(name) ?? { keys, rows: [] };
    group.rows.push(row);
    groups.set(name, group);
  }
  const idColumn = sql`${sql.identifier(getTableName(table))}.${sql.identifier(table.id.name)}`;
  const encoder = new TextEncoder();
  const statements: Statement[] = [];
  for (const { keys, rows: grouped } of groups.values()) {
    const update = (chunk: string[], ids: string[]) => {
      const json = `[${chunk.join(",")}]`;
      const set: Record<string, unknown> = { ...options.also };
      keys.forEach((key, i) => {
        set[key] =
          sql`(select json_extract(value, ${`$[${i + 1}]`}) from json_each(${json}) where json_extract(value, '$[0]') = ${idColumn})`;
      });
      return db
        .update(table)
        .set(set as SQLiteUpdateSetSource<T>)
        .where(options.where(idIn(table.id, ids)));
    };
    let chunk: string[] = [];
    let ids: string[] = [];
    let bytes = 0;
    for (const row of grouped) {
      const values = row as Record<string, unknown>;
      const cells = keys.map((key) => {
        const column = columns[key];
        if (!column) throw new Error(`updateEach: no column ${key}`);
        return driverCell(column, values[key]);
      });
      const json = JSON.stringify([row.id, ...cells]);
      const size = encoder.encode(json).length + row.id.length + 4;
      // The chunk is bound once per column it sets: their sum stays under one JSON insert's.
      if (chunk.length > 0 && bytes + size > JSON_INSERT_BYTES / Math.max(1, keys.length)) {
        statements.push(update(chunk, ids));
        chunk = [];
        ids = [];
        bytes = 0;
      }
      chunk.push(json);
      ids.push(row.id);
      bytes += size;
    }
    if (chunk.length > 0) statements.push(update(chunk, ids));
  }
  return statements;
}
