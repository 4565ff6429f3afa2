import { IcsError } from "./errors";

/**
 * Refuses, before ical.js expands anything, the recurrence rules whose expansion has no bound
 * (docs/decisions.md, "External calendars (part 2)", "Review fixes"). ical.js searches for the
 * next occurrence without a limit: a DAILY, HOURLY or MINUTELY rule whose BY parts rarely or
 * never match (`FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30`) loops for ever inside one `next()`, where
 * no step count can stop it; and a Worker's clock does not move during CPU work, so no time
 * limit can either. The limits are on the shape of the rule:
 * - SECONDLY: anywhere;
 * - MINUTELY, HOURLY, DAILY: with BYMONTH, BYMONTHDAY, BYYEARDAY or BYWEEKNO;
 * - in a VTIMEZONE (its STANDARD and DAYLIGHT rules are expanded from their DTSTART on): any
 *   rule but YEARLY, and a DTSTART before 1601.
 * Real calendars write "every day in a month" as MONTHLY or YEARLY rules, and zones as
 * YEARLY rules from 1601 (Outlook) or 1970; nothing they send is refused.
 */
export function refuseUnboundedRules(jcal: unknown[]): void {
  walk(jcal, false);
}

type JCal = [string, unknown[][], unknown[]];

const NARROWING = ["bymonth", "bymonthday", "byyearday", "byweekno"];
const FINE = new Set(["MINUTELY", "HOURLY", "DAILY"]);
/** Outlook writes its zones' rules from 1601: a YEARLY rule from then is ~430 steps. */
const EARLIEST_ZONE_YEAR = 1601;

const refuse = (why: string) =>
  new IcsError(
    "too_complex",
    `The calendar has a recurrence rule that cannot be expanded: ${why}.`,
  );

function walk(component: unknown[], inZone: boolean): void {
  const [name, properties, children] = component as JCal;
  const zone = inZone || name === "vtimezone";
  for (const property of Array.isArray(properties) ? properties : []) {
    const key = property[0];
    if (key === "rrule" || key === "exrule") {
      for (const value of property.slice(3)) checkRule(value, zone);
    }
    if (zone && key === "dtstart") {
      const year = Number(String(property[3] ?? "").slice(0, 4));
      if (!(year >= EARLIEST_ZONE_YEAR))
        throw refuse(`a time zone's rules start before ${EARLIEST_ZONE_YEAR}`);
    }
  }
  for (const child of Array.isArray(children) ? children : []) {
    if (Array.isArray(child)) walk(child, zone);
  }
}

function checkRule(value: unknown, inZone: boolean): void {
  const rule = (value ?? {}) as Record<string, unknown>;
  const freq = String(rule.freq ?? "").toUpperCase();
  if (freq === "SECONDLY") throw refuse("FREQ=SECONDLY is not supported");
  if (inZone && freq !== "YEARLY") throw refuse("a time zone's rules must be YEARLY");
  if (FINE.has(freq) && NARROWING.some((part) => rule[part] !== undefined))
    throw refuse(`FREQ=${freq} with BYMONTH, BYMONTHDAY, BYYEARDAY or BYWEEKNO is not supported`);
}
