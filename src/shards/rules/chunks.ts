/**
 * How a chunk of rows read from the source goes to the target: as JSON arrays,
 * one `INSERT … SELECT … FROM json_each(?)` per ~90 KB (one bound parameter
 * each, as src/db's JSON inserts), at most `maxStatements` statements (one D1
 * batch). Rows past what fits wait for the next chunk.
 */
export const JSON_STATEMENT_BYTES = 90_000;
export const MAX_STATEMENTS = 50;

export type Cell = string | number | null;

export interface Packed {
  /** The JSON parameter of each statement: `[[cell, …], …]`. */
  statements: string[];
  /** How many of the rows (from the first) the statements hold. */
  rows: number;
}

export function packRows(
  rows: readonly Cell[][],
  maxBytes = JSON_STATEMENT_BYTES,
  maxStatements = MAX_STATEMENTS,
): Packed {
  const encoder = new TextEncoder();
  const statements: string[] = [];
  let current: string[] = [];
  let bytes = 2;
  let taken = 0;
  for (const row of rows) {
    const json = JSON.stringify(row);
    const size = encoder.encode(json).length + 1;
    if (current.length > 0 && bytes + size > maxBytes) {
      statements.push(`[${current.join(",")}]`);
      if (statements.length >= maxStatements) return { statements, rows: taken };
      current = [];
      bytes = 2;
    }
    // A row alone over the bound still goes, alone: D1 takes statements up to 100 KB.
    current.push(json);
    bytes += size;
    taken += 1;
  }
  if (current.length > 0) statements.push(`[${current.join(",")}]`);
  return { statements, rows: taken };
}

/** A value read from D1 as a cell of the JSON the target expands; anything else is a schema change to handle. */
export function cellOf(table: string, column: string, value: unknown): Cell {
  if (value === null || typeof value === "string" || typeof value === "number") return value;
  throw new Error(
    `move: ${table}.${column} holds a ${typeof value}, which a JSON copy would change`,
  );
}
