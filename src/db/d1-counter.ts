import { HopCounter } from "../platform/hops";

/**
 * A request's D1 use: round trips as latency feels them, every statement sent,
 * the rows D1 read and the size of what it returned.
 */
export class D1Counter extends HopCounter {
  statements = 0;
  /** Placement checks sent with the calls to a shard (one extra statement each, no round trip). */
  placementChecks = 0;
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
