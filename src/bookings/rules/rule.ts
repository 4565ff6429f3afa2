/**
 * A series' recurrence rule: the subset of RFC 5545 RRULE a standing
 * appointment needs, checked strictly (the library would drop parts it does
 * not know, or an INTERVAL of 0, without a word; here any of that is refused).
 */

export const MAX_OCCURRENCES = 52;
export const MAX_INTERVAL = 52;
/** Every occurrence (and UNTIL) is at most this many days after the first start. */
export const MAX_SPAN_DAYS = 366;

export const FREQUENCIES = ["DAILY", "WEEKLY", "MONTHLY"] as const;
export type Frequency = (typeof FREQUENCIES)[number];

export const WEEKDAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** When the rule ends: after COUNT occurrences, or on UNTIL (a date, or an instant). */
export type RuleEnd =
  { count: number } | { until: { date: string } } | { until: { instant: number } };

export interface SeriesRule {
  freq: Frequency;
  interval: number;
  byDay: Weekday[];
  end: RuleEnd;
}

const PARTS = new Set(["FREQ", "INTERVAL", "COUNT", "UNTIL", "BYDAY"]);

/** `20270110` or `20270110T093000Z`; a floating UNTIL (no Z) is ambiguous in a zoned series. */
const UNTIL_DATE = /^(\d{4})(\d{2})(\d{2})$/;
const UNTIL_INSTANT = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/;

const integer = (value: string, min: number, max: number) =>
  /^\d{1,3}$/.test(value) && Number(value) >= min && Number(value) <= max ? Number(value) : null;

function untilOf(value: string): RuleEnd | string {
  const date = UNTIL_DATE.exec(value);
  if (date) {
    const iso = `${date[1]}-${date[2]}-${date[3]}`;
    return Number.isNaN(Date.parse(`${iso}T00:00:00Z`)) || !sameDate(iso)
      ? "UNTIL is not a valid date."
      : { until: { date: iso } };
  }
  const at = UNTIL_INSTANT.exec(value);
  if (at) {
    const iso = `${at[1]}-${at[2]}-${at[3]}T${at[4]}:${at[5]}:${at[6]}Z`;
    const ms = Date.parse(iso);
    return Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 19) !== iso.slice(0, 19)
      ? "UNTIL is not a valid date-time."
      : { until: { instant: ms } };
  }
  return "UNTIL must be a date (YYYYMMDD) or a UTC date-time (YYYYMMDDTHHMMSSZ).";
}

/** Rejects dates JavaScript would roll over (20270231). */
const sameDate = (iso: string) => new Date(`${iso}T00:00:00Z`).toISOString().slice(0, 10) === iso;

/**
 * Parses `FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH;COUNT=12` (an optional
 * `RRULE:` prefix is allowed): the rule, or what is wrong with it.
 */
export function parseRule(text: string): SeriesRule | string {
  const body = text.trim().replace(/^RRULE:/i, "");
  if (body === "") return "The rule is empty.";
  const parts = new Map<string, string>();
  for (const part of body.split(";")) {
    const [name, value, ...rest] = part.split("=");
    const key = name?.trim().toUpperCase() ?? "";
    if (value === undefined || rest.length > 0 || key === "")
      return `"${part}" is not a NAME=VALUE part.`;
    if (!PARTS.has(key))
      return `${key} is not supported: a rule has FREQ, INTERVAL, COUNT or UNTIL, and BYDAY (WEEKLY only).`;
    if (parts.has(key)) return `${key} is given twice.`;
    parts.set(key, value.trim().toUpperCase());
  }

  const freq = parts.get("FREQ");
  if (!freq) return "FREQ is required.";
  if (!(FREQUENCIES as readonly string[]).includes(freq))
    return `FREQ must be one of ${FREQUENCIES.join(", ")}.`;

  const intervalText = parts.get("INTERVAL");
  const interval = intervalText === undefined ? 1 : integer(intervalText, 1, MAX_INTERVAL);
  if (interval === null) return `INTERVAL must be an integer from 1 to ${MAX_INTERVAL}.`;

  const byDayText = parts.get("BYDAY");
  let byDay: Weekday[] = [];
  if (byDayText !== undefined) {
    if (freq !== "WEEKLY") return "BYDAY is allowed only with FREQ=WEEKLY.";
    const days = byDayText.split(",");
    if (!days.every((d): d is Weekday => (WEEKDAYS as readonly string[]).includes(d)))
      return `BYDAY must list weekdays (${WEEKDAYS.join(", ")}), each without a number.`;
    if (new Set(days).size !== days.length) return "BYDAY lists a weekday twice.";
    byDay = days;
  }

  const countText = parts.get("COUNT");
  const untilText = parts.get("UNTIL");
  if (countText !== undefined && untilText !== undefined)
    return "A rule ends with COUNT or with UNTIL, not both.";
  let end: RuleEnd;
  if (countText !== undefined) {
    const count = integer(countText, 2, MAX_OCCURRENCES);
    if (count === null) return `COUNT must be an integer from 2 to ${MAX_OCCURRENCES}.`;
    end = { count };
  } else if (untilText !== undefined) {
    const until = untilOf(untilText);
    if (typeof until === "string") return until;
    end = until;
  } else {
    return "The rule must end: give COUNT (2 to 52) or UNTIL (within 366 days).";
  }
  return { freq: freq as Frequency, interval, byDay, end };
}

/** The rule written back in one canonical order (what the series stores and shows). */
export function formatRule(rule: SeriesRule): string {
  const parts = [`FREQ=${rule.freq}`];
  if (rule.interval !== 1) parts.push(`INTERVAL=${rule.interval}`);
  if (rule.byDay.length > 0) parts.push(`BYDAY=${rule.byDay.join(",")}`);
  if ("count" in rule.end) parts.push(`COUNT=${rule.end.count}`);
  else if ("date" in rule.end.until) parts.push(`UNTIL=${rule.end.until.date.replaceAll("-", "")}`);
  else
    parts.push(
      `UNTIL=${new Date(rule.end.until.instant)
        .toISOString()
        .slice(0, 19)
        .replaceAll("-", "")
        .replaceAll(":", "")}Z`,
    );
  return parts.join(";");
}
