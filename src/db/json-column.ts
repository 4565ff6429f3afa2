import { z } from "zod";
import { log } from "../platform/log";

/**
 * Where a JSON value came from: the column (or the query's JSON aggregate) and, when known,
 * the row's id, so the log line leads to the row.
 */
export interface JsonSource {
  column: string;
  id?: string | number;
}

/** A `json_group_array` of ids, as a query aggregates a row's links. */
export const IdListSchema = z.array(z.string());

/** A `json_group_array` of `json_object('uuid', …, 'name', …)`: linked rows by id and name. */
export const RefListSchema = z.array(z.object({ uuid: z.string(), name: z.string() }));

/** JSON read from D1 that is not the shape its column holds. */
export class StoredJsonError extends Error {
  constructor(
    readonly source: JsonSource,
    readonly problems: string[],
  ) {
    super(
      `${source.column}${source.id === undefined ? "" : ` of ${source.id}`} is not the stored shape: ${problems.join("; ")}`,
    );
    this.name = "StoredJsonError";
  }
}

/**
 * Parses JSON read from D1 against its column's shape. A value that is not JSON, or not that
 * shape, is logged (column, row, which fields and why; never the values, which may be a
 * customer's) and thrown: a request answers 500 and a background pass fails, rather than
 * carrying a wrong value on as if it were right.
 */
export function parseJsonColumn<S extends z.ZodType>(
  schema: S,
  text: string,
  source: JsonSource,
): z.output<S> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw fail(source, ["not JSON"]);
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw fail(
    source,
    parsed.error.issues.map((i) => `${i.path.join(".") || "(value)"}: ${i.message}`),
  );
}

function fail(source: JsonSource, problems: string[]): StoredJsonError {
  const error = new StoredJsonError(source, problems);
  log("error", "stored JSON does not match its column's shape", {
    column: source.column,
    id: source.id,
    problems,
  });
  return error;
}
