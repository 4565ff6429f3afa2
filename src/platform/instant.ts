import { z } from "@hono/zod-openapi";
import { toIso } from "./clock";

/**
 * The one rule for every instant the API takes, in a body or a query, public
 * or management (docs/decisions.md, "Instants and dates"):
 * - RFC 3339 `YYYY-MM-DDTHH:MM:SS` with `Z` or an offset `±HH:MM`, a real
 *   calendar date and time; normalised to UTC `…Z`, the form every answer uses;
 * - whole seconds: a fraction is refused unless it is all zeros (`.000`, what
 *   `Date.prototype.toISOString` writes, is the whole second it names);
 * - from 1970-01-01T00:00:00Z to 2100-12-31T23:59:59Z, judged after
 *   normalising (an offset may carry a time written in 2100 into 2101).
 */

const FIRST_INSTANT = "1970-01-01T00:00:00Z";
const LAST_INSTANT = "2100-12-31T23:59:59Z";
const FIRST_DATE = FIRST_INSTANT.slice(0, 10);
const LAST_DATE = LAST_INSTANT.slice(0, 10);
const FIRST_MS = Date.parse(FIRST_INSTANT);
const LAST_MS = Date.parse(LAST_INSTANT);

const FORMAT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
// zod's RFC 3339 check knows leap years and month lengths; FORMAT above only bounds the shape.
const rfc3339 = z.iso.datetime({ offset: true });

const EXAMPLE = "2030-05-04T10:00:00Z";
const FORMAT_MESSAGE = `Must be an ISO 8601 instant such as ${EXAMPLE} (or with an offset, +02:00).`;
const DATE_OR_INSTANT_MESSAGE = `Must be a date YYYY-MM-DD or an ISO 8601 instant such as ${EXAMPLE}.`;
const FRACTION_MESSAGE = "Must be whole seconds: no fraction of a second.";
const RANGE_MESSAGE = `Must be from ${FIRST_INSTANT} to ${LAST_INSTANT}.`;
const DATE_RANGE_MESSAGE = `Must be a date from ${FIRST_DATE} to ${LAST_DATE}.`;

/** What is wrong with `value` as an instant, or its epoch milliseconds. */
function readInstant(value: string): { ms: number } | { problem: string } {
  const shape = FORMAT.exec(value);
  if (!shape || !rfc3339.safeParse(value).success) return { problem: FORMAT_MESSAGE };
  if (shape[1] && !/^\.0+$/.test(shape[1])) return { problem: FRACTION_MESSAGE };
  const ms = Date.parse(value);
  if (!(ms >= FIRST_MS && ms <= LAST_MS)) return { problem: RANGE_MESSAGE };
  return { ms };
}

/** What is wrong with `value` as a calendar date `YYYY-MM-DD`, or null. */
function dateProblem(value: string): string | null {
  if (!DATE.test(value)) return "Must be a date YYYY-MM-DD.";
  // Engines roll 2030-02-30 over to March; a real date survives the round trip unchanged.
  const ms = Date.parse(`${value}T00:00:00Z`);
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value)
    return "Must be a real calendar date.";
  if (value < FIRST_DATE || value > LAST_DATE) return DATE_RANGE_MESSAGE;
  return null;
}

const isDate = (value: string) => DATE.test(value);

/** The instant's check as a zod step: normalised UTC `…Z` text out. */
const normalise = (value: string, ctx: z.RefinementCtx<string>): string => {
  const read = readInstant(value);
  if ("problem" in read) {
    ctx.addIssue({ code: "custom", message: read.problem, input: value });
    return z.NEVER;
  }
  return toIso(read.ms);
};

/*
 * The document's side of the rule: a pattern for the shape, the whole seconds
 * and the years, so a client's validator refuses what the API refuses (the
 * exact bound, after an offset, is in the description).
 */
const YEARS = "(19[7-9]\\d|20\\d\\d|2100)";
const INSTANT_PATTERN = `^${YEARS}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.0{1,9})?(Z|[+-]\\d{2}:\\d{2})$`;
const DATE_PATTERN = `^${YEARS}-\\d{2}-\\d{2}$`;
const INSTANT_DOC = {
  type: "string" as const,
  format: "date-time",
  pattern: INSTANT_PATTERN,
  example: EXAMPLE,
  description: `An instant in whole seconds, \`Z\` or with an offset (normalised to UTC), from ${FIRST_INSTANT} to ${LAST_INSTANT}. A fraction of a second is refused unless it is zero.`,
};

/** An instant (body field or query parameter): normalised UTC text, `2030-05-04T10:00:00Z`. */
export const instant = z.string().transform(normalise).openapi(INSTANT_DOC);

/** An instant as epoch milliseconds (list filter bounds). */
export const instantMs = instant.transform((v) => Date.parse(v)).openapi(INSTANT_DOC);

/** A calendar date `YYYY-MM-DD` from 1970 to 2100. */
export const calendarDate = z
  .string()
  .superRefine((v, ctx) => {
    const problem = dateProblem(v);
    if (problem) ctx.addIssue({ code: "custom", message: problem, input: v });
  })
  .openapi({ type: "string", format: "date", pattern: DATE_PATTERN, example: "2030-03-04" });

/** A range bound: a date `YYYY-MM-DD` (whole days) or an instant (normalised), each by its own rule. */
export const dateOrInstant = z
  .string()
  .transform((v, ctx) => {
    if (!isDate(v)) {
      const read = readInstant(v);
      if ("ms" in read) return toIso(read.ms);
      const message = read.problem === FORMAT_MESSAGE ? DATE_OR_INSTANT_MESSAGE : read.problem;
      ctx.addIssue({ code: "custom", message, input: v });
      return z.NEVER;
    }
    const problem = dateProblem(v);
    if (problem) {
      ctx.addIssue({ code: "custom", message: problem, input: v });
      return z.NEVER;
    }
    return v;
  })
  .openapi({
    anyOf: [
      { type: "string", format: "date", pattern: DATE_PATTERN },
      { type: "string", format: "date-time", pattern: INSTANT_PATTERN },
    ],
    example: "2030-03-04",
    description: `A date YYYY-MM-DD (whole days in the location's zone) or an instant in whole seconds (\`Z\` or an offset); from ${FIRST_INSTANT} to ${LAST_INSTANT}.`,
  });
