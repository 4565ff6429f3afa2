import ICAL from "ical.js";
import { IcsError } from "./errors";

/** A jCal component: [name, properties, subcomponents]. */
export type JCal = [string, unknown[][], unknown[]];

export interface Parsed {
  calendar: JCal;
  /** VEVENTs whose text ical.js could not read at all (left out of `calendar`). */
  unreadableEvents: number;
}

/**
 * The text's VCALENDAR as jCal. The nesting is counted on the raw lines first: ical.js parses
 * components recursively, and every reader after it walks them recursively too (60,000 nested
 * components overflowed the stack). When ical.js refuses the whole text (one line it cannot
 * read), each top-level component is parsed on its own: an unreadable VEVENT is left out and
 * counted, an unreadable other component (a time-zone or a to-do component) is left out.
 */
export function parseCalendar(
  text: string,
  limits: { maxComponents: number; maxDepth: number },
): Parsed {
  prescan(text, limits);
  text = tidyRules(text);
  let parsed: unknown;
  try {
    parsed = ICAL.parse(text);
  } catch {
    return parseByComponent(text);
  }
  // One component parses to its jCal array; several top-level ones to an array of them.
  const jcal = parsed as unknown[];
  if (!Array.isArray(jcal) || jcal[0] !== "vcalendar" || !Array.isArray(jcal[2]))
    throw new IcsError("not_a_calendar", "The text is not one VCALENDAR.");
  return { calendar: jcal as JCal, unreadableEvents: 0 };
}

/** An RRULE or EXRULE line with its folded continuation lines. */
const RULE_LINE = /^(RRULE|EXRULE)([;:][^\r\n]*(?:\r?\n[ \t][^\r\n]*)*)/gimu;

/**
 * Exchange (CDO) writes `BYDAY=MO, TU, WE` with spaces, which ical.js refuses; a rule has no
 * place for white space, so it is taken out (folds included) before parsing.
 */
function tidyRules(text: string): string {
  return text.replace(RULE_LINE, (_, name: string, rest: string) =>
    /\s/u.test(rest)
      ? `${name}${rest.replace(/\r?\n[ \t]/gu, "").replace(/[ \t]+/gu, "")}`
      : `${name}${rest}`,
  );
}

const BEGIN_OR_END = /^(BEGIN|END)[ \t]*:/gimu;

/** Refuses text with more components, or deeper nesting, than the limits, before any parse. */
function prescan(text: string, limits: { maxComponents: number; maxDepth: number }): void {
  let depth = 0;
  let count = 0;
  for (const match of text.matchAll(BEGIN_OR_END)) {
    if ((match[1] ?? "").toUpperCase() === "BEGIN") {
      depth++;
      count++;
      if (depth > limits.maxDepth)
        throw new IcsError(
          "too_complex",
          `The calendar nests components more than ${limits.maxDepth} deep.`,
        );
      if (count > limits.maxComponents)
        throw new IcsError(
          "too_complex",
          `The calendar has more than ${limits.maxComponents} components.`,
        );
    } else if (depth > 0) depth--;
  }
}

/** The VCALENDAR's top-level components, each parsed on its own. */
function parseByComponent(text: string): Parsed {
  const lines = text.split(/\r\n|\n|\r/u);
  const start = lines.findIndex((line) => /^BEGIN:VCALENDAR\s*$/iu.test(line));
  if (start < 0) throw new IcsError("unreadable", "The text is not iCalendar.");
  const children: unknown[] = [];
  const own: string[] = [];
  let unreadableEvents = 0;
  let depth = 1;
  let block: string[] = [];
  let closed = false;
  for (const line of lines.slice(start + 1)) {
    const begins = /^BEGIN:/iu.test(line);
    const ends = /^END:/iu.test(line);
    if (depth === 1 && ends) {
      closed = true; // END:VCALENDAR
      break;
    }
    if (begins) depth++;
    if (depth >= 2) block.push(line);
    else own.push(line);
    if (ends) depth--;
    if (depth === 1 && block.length > 0) {
      const component = parseOne(block);
      if (component) children.push(component);
      else if (/^BEGIN:VEVENT\s*$/iu.test(block[0] ?? "")) unreadableEvents++;
      block = [];
    }
  }
  // The calendar's own lines must read: text that is no calendar at all is refused, not empty.
  if (!closed || parseOne(["BEGIN:VCALENDAR", ...own, "END:VCALENDAR"]) === null)
    throw new IcsError("unreadable", "The text is not iCalendar.");
  return { calendar: ["vcalendar", [], children], unreadableEvents };
}

function parseOne(block: string[]): unknown[] | null {
  try {
    const parsed = ICAL.parse(block.join("\r\n")) as unknown[];
    return Array.isArray(parsed) && typeof parsed[0] === "string" ? parsed : null;
  } catch {
    return null;
  }
}
