import { customType } from "drizzle-orm/sqlite-core";
import { z } from "zod";
import { parseJsonColumn } from "../json-column";

/**
 * A TEXT column holding JSON of `schema`'s shape: written with JSON.stringify, read back
 * through `parseJsonColumn` (a row that is not that shape is logged and thrown), so its
 * type is the schema's, not a cast. The SQL type is TEXT, as drizzle's `{ mode: "json" }`.
 */
export const jsonText = <S extends z.ZodType>(name: string, table: string, schema: S) =>
  customType<{ data: z.output<S>; driverData: string }>({
    dataType: () => "text",
    toDriver: (value) => JSON.stringify(value),
    fromDriver: (value) => parseJsonColumn(schema, value, { column: `${table}.${name}` }),
  })(name);

/** Ids, names or origins, in order. */
export const StringListSchema = z.array(z.string());

/** Text per locale code. */
export const TranslationsSchema = z.record(z.string(), z.string());

/** Local "HH:MM" intervals of a day. */
export const LocalIntervalsSchema = z.array(z.object({ start: z.string(), end: z.string() }));

/** A webhook's query parameters or headers. */
export const NameValueListSchema = z.array(z.object({ name: z.string(), value: z.string() }));
