import { z } from "@hono/zod-openapi";
import { calendarDate, uuid } from "../../platform/fields";
import { headerRef } from "../../http/openapi-headers";
import { MAX_REPORT_DAYS, rangeProblem } from "../report-query";

/** A report's query: a location, its days and a grouping (default `fallback`). */
export const reportQuery = <const G extends readonly [string, ...string[]]>(
  groups: G,
  fallback: G[number],
) =>
  z
    .object({
      location_uuid: uuid("location_uuid"),
      from: calendarDate.openapi({ description: "First day `YYYY-MM-DD`, in the location's zone" }),
      to: calendarDate.openapi({
        description: `Last day (included), on or after from; at most ${MAX_REPORT_DAYS} days in all`,
      }),
      group_by: z
        .enum(groups, { message: `Must be one of: ${groups.join(", ")}.` })
        .default(fallback)
        .openapi({ description: `Default ${fallback}` }),
    })
    .superRefine((q, ctx) => {
      const problem = rangeProblem(q.from, q.to);
      if (problem)
        ctx.addIssue({ code: "custom", path: [problem.field], message: problem.message });
    });

/** A report's 200: its JSON, or with `Accept: text/csv` its rows as a CSV file. */
export const reportResponse = <T extends z.ZodType>(schema: T, name: string) => ({
  content: {
    "application/json": { schema },
    "text/csv": {
      schema: z.string().openapi({
        description: `The \`data\` rows as RFC 4180 CSV (UTF-8, CRLF): a header of the row's field names; a text cell starting with = + - @ TAB or CR gets a leading ' (spreadsheet formulas stay inert). Sent as the file ${name}-<from>-<to>.csv.`,
      }),
    },
  },
  description: "The report (`Accept: text/csv`: its rows as CSV)",
  headers: { "Content-Disposition": headerRef("ContentDisposition") },
});
