import { failpoint } from "../lib/failpoints";
import { HopCounter } from "../lib/hops";
import type { WriteGate } from "../lib/write-gate";
import {
  D1_MAX_BATCH_STATEMENTS,
  D1_MAX_PARAMS,
  TooManyParametersError,
  TooManyStatementsError,
} from "./limits";

/**
 * Wraps the D1 binding for one request (or one background job):
 * - counts its round trips as latency feels them (`HopCounter`: calls in
 *   flight together are one hop; a batch is one call however many statements
 *   it carries), and the statements it sends (Cloudflare counts queries per
 *   invocation), reported in Server-Timing;
 * - refuses any statement over D1's 100 bound parameters, naming it, and any
 *   batch over 100 statements, before sending either;
 * - makes every write wait for the request's `WriteGate`, so reads may run
 *   while the API key is still being checked but nothing is written before
 *   it passed.
 */

const RAW = Symbol("raw statement");
const QUERY = Symbol("query text");

type Wrapped = D1PreparedStatement & { [RAW]: D1PreparedStatement; [QUERY]: string };

/**
 * A request's D1 use: round trips as latency feels them, every statement sent,
 * the rows D1 read and the size of what it returned.
 */
export class D1Counter extends HopCounter {
  statements = 0;
  /**
   * Rows D1 says it read (its `meta.rows_read`: table and index rows visited,
   * not only those returned), over every result that carries it. `first()` and
   * `raw()` (drizzle's single selects outside a batch) come back without meta,
   * so their rows are not in it; every batch's are.
   */
  rowsRead = 0;
  /**
   * Size of the values D1 returned (`rowsBytes`), from every call that returns
   * rows. D1's meta has no bytes read (`size_after` is the database's size), so
   * this is what crossed the wire to the Worker, less the column names.
   */
  bytesReturned = 0;

  /** Adds what a result says it read, and the size of its rows; passes the result on. */
  read<T>(result: T): T {
    const r = result as { meta?: { rows_read?: unknown }; results?: unknown } | null;
    if (typeof r?.meta?.rows_read === "number") this.rowsRead += r.meta.rows_read;
    if (Array.isArray(r?.results)) this.bytesReturned += rowsBytes(r.results);
    return result;
  }

  /** Adds the size of rows returned without meta (`raw()`); passes them on. */
  returnedRows<T>(rows: T): T {
    if (Array.isArray(rows)) this.bytesReturned += rowsBytes(rows);
    return rows;
  }

  /** Adds the size of the one row (or value) `first()` returned; passes it on. */
  returnedRow<T>(row: T): T {
    this.bytesReturned += rowBytes(row);
    return row;
  }
}

/**
 * The size of rows D1 returned, close to what SQLite stores: text by its length
 * (ids, kinds, dates and JSON are ASCII: a byte a character), a number 8 bytes,
 * a blob (an array of byte values) its length, null nothing. Not
 * `JSON.stringify(rows).length`: a 62-day search returns thousands of rows, and
 * that costs milliseconds of CPU where this costs a fraction of one.
 */
export function rowsBytes(rows: readonly unknown[]): number {
  let sum = 0;
  for (const row of rows) sum += rowBytes(row);
  return sum;
}

/** One row: an object (`all`, `first`) or an array (`raw`) of values, or a lone value. */
function rowBytes(row: unknown): number {
  if (row === null || typeof row !== "object" || isBlob(row)) return valueBytes(row);
  let sum = 0;
  for (const value of Array.isArray(row) ? row : Object.values(row)) sum += valueBytes(value);
  return sum;
}

const isBlob = (value: object) => value instanceof ArrayBuffer || ArrayBuffer.isView(value);

function valueBytes(value: unknown): number {
  if (typeof value === "string") return value.length;
  if (typeof value === "number" || typeof value === "bigint") return 8;
  if (Array.isArray(value)) return value.length;
  if (typeof value === "object" && value !== null && isBlob(value))
    return (value as ArrayBuffer).byteLength;
  return 0;
}

/** The D1 limit, refused here with the statement named, in every environment. */
function checkParams(query: string, count: number) {
  if (count > D1_MAX_PARAMS) throw new TooManyParametersError(query, count);
}

/** Only plain SELECTs (and WITH … SELECT) read; anything else may write. */
export const isRead = (query: string) =>
  /^\s*(select|with)\b/i.test(query) && !/\b(insert|update|delete|replace)\s/i.test(query);

const queryOf = (s: D1PreparedStatement) => (s as Partial<Wrapped>)[QUERY] ?? "";

function wrapStatement(
  statement: D1PreparedStatement,
  hops: D1Counter,
  gate: WriteGate | undefined,
  query: string,
): Wrapped {
  const timed = async <T>(run: () => Promise<T>): Promise<T> => {
    if (gate && !isRead(query)) await gate.pass();
    hops.statements += 1;
    return hops.track(run);
  };
  const wrapped = {
    [RAW]: statement,
    [QUERY]: query,
    bind: (...values: unknown[]) => {
      checkParams(query, values.length);
      return wrapStatement(statement.bind(...values), hops, gate, query);
    },
    first: (column?: string) =>
      timed(() => (column === undefined ? statement.first() : statement.first(column))).then((r) =>
        hops.returnedRow(r),
      ),
    run: () => timed(() => statement.run()).then((r) => hops.read(r)),
    all: () => timed(() => statement.all()).then((r) => hops.read(r)),
    raw: (options?: { columnNames?: boolean }) =>
      timed(() =>
        options?.columnNames ? statement.raw({ columnNames: true }) : statement.raw(),
      ).then((r) => hops.returnedRows(r)),
  };
  return wrapped as unknown as Wrapped;
}

export function instrumentD1(
  db: D1Database,
  hops: D1Counter = new D1Counter(),
  gate?: WriteGate,
): D1Database {
  const wrapped = {
    prepare: (query: string) => wrapStatement(db.prepare(query), hops, gate, query),
    batch: async (statements: D1PreparedStatement[]) => {
      // Refused whole before anything is sent: a batch is one transaction, never half-done.
      if (statements.length > D1_MAX_BATCH_STATEMENTS)
        throw new TooManyStatementsError(statements.length);
      const raw = statements.map((s) => (s as Partial<Wrapped>)[RAW] ?? s);
      if (gate && !statements.every((s) => isRead(queryOf(s)))) await gate.pass();
      hops.statements += statements.length;
      return hops.track(async () => {
        // Fault tests: the connection is lost before the batch reaches D1 (it never commits,
        // but the Worker cannot tell that from a lost answer).
        failpoint("d1.batch.lost", statements.map(queryOf).join(";\n"));
        const results = await db.batch(raw);
        for (const result of results) hops.read(result);
        // Fault tests: the batch committed, but the Worker never hears of it.
        failpoint("d1.batch.committed", statements.map(queryOf).join(";\n"));
        return results;
      });
    },
    exec: async (query: string) => {
      if (gate) await gate.pass();
      hops.statements += 1;
      return hops.track(() => db.exec(query));
    },
    dump: () => db.dump(),
    withSession: (constraint?: string) => db.withSession(constraint),
  };
  return wrapped as unknown as D1Database;
}
