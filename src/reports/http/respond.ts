import type { Context } from "hono";
import { accepts } from "hono/accepts";
import type { z } from "@hono/zod-openapi";
import { csvOf } from "../views/csv";

/**
 * Whether the client asked for CSV (`text/csv`, with or without parameters);
 * anything else gets JSON. The answer then depends on Accept: caches are told so.
 */
export function wantsCsv(c: Context): boolean {
  c.header("vary", "Accept", { append: true });
  return (
    accepts(c, {
      header: "Accept",
      supports: ["application/json", "text/csv"],
      default: "application/json",
    }) === "text/csv"
  );
}

/** A report's rows as a CSV download named `<name>-<from>-<to>.csv`, columns in the row schema's order. */
export function csvResponse(
  c: Context,
  name: string,
  row: z.ZodObject,
  report: { from: string; to: string; data: readonly Record<string, unknown>[] },
): Response {
  return c.body(csvOf(Object.keys(row.shape), report.data), 200, {
    "content-type": "text/csv; charset=utf-8",
    "content-disposition": `attachment; filename="${name}-${report.from}-${report.to}.csv"`,
  });
}
