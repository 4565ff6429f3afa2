import { stringify } from "csv-stringify/sync";

/** A cell a spreadsheet would run as a formula starts with one of these (OWASP "CSV injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A text cell made inert: a leading `'` before a formula-like start. Numbers
 * stay numbers (a negative net is a value, not a formula); null is empty.
 */
export const cellOf = (value: unknown): string | number => {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return value;
  const text = String(value);
  return FORMULA_START.test(text) ? `'${text}` : text;
};

/**
 * Rows as RFC 4180 text: a header of the field names, CRLF after every record,
 * fields quoted when they hold a comma, a quote or a line break.
 */
export function csvOf(
  columns: readonly string[],
  rows: readonly Record<string, unknown>[],
): string {
  return stringify(
    rows.map((row) => columns.map((c) => cellOf(row[c]))),
    // A line break inside a cell is quoted too: the package quotes only the record delimiter itself.
    {
      header: true,
      columns: [...columns],
      record_delimiter: "\r\n",
      eof: true,
      quoted_match: /[\r\n]/,
    },
  );
}
