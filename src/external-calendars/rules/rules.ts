import { IcsError } from "./errors";
import type { JCal } from "./parse";

/**
 * What the shape of a rule settles before anything is expanded (every expansion step is
 * counted as well: `meter.ts`).
 * - VTIMEZONE: ical.js expands a zone's STANDARD and DAYLIGHT rules from their DTSTART on,
 *   whenever a time in the zone is read. A rule that is not YEARLY refuses the calendar (real
 *   zones are YEARLY rules); a ruled observance's DTSTART before 1970 is moved to 1970 (eM
 *   Client writes year 1, Outlook 1601: ~13,000 expansion steps a zone, so 20 zones would
 *   spend the calendar's budget). A YEARLY rule with its BY parts gives the same changes from
 *   1970 on as from its own start, and busy time is never before 1970 (an older series'
 *   start only places the series, within the hour of margin its fast-forward keeps).
 * - VEVENT: FREQ=SECONDLY (in an RRULE or EXRULE) is not read; that event is skipped.
 */
export const EARLIEST_ZONE_YEAR = 1970;

const refuse = (why: string) =>
  new IcsError(
    "too_complex",
    `The calendar has a recurrence rule that cannot be expanded: ${why}.`,
  );

/** Checks and clamps the calendar's VTIMEZONEs in place (depth is bounded by the pre-scan). */
export function prepareTimezones(calendar: JCal): void {
  for (const child of calendar[2]) {
    if (Array.isArray(child) && child[0] === "vtimezone") walkZone(child as JCal);
  }
}

function walkZone(component: JCal): void {
  const [, properties, children] = component;
  const list = Array.isArray(properties) ? properties : [];
  const ruled = list.some((p) => p[0] === "rrule" || p[0] === "exrule");
  for (const property of list) {
    const key = property[0];
    if (key === "rrule" || key === "exrule") {
      for (const value of property.slice(3)) {
        const freq = String((value as { freq?: unknown } | null)?.freq ?? "").toUpperCase();
        if (freq !== "YEARLY") throw refuse("a time zone's rules must be YEARLY");
      }
    }
    if (key === "dtstart" && typeof property[3] === "string") {
      const value = property[3];
      const year = Number(value.slice(0, 4));
      if (!Number.isInteger(year) || /^\d{4}-/u.test(value) === false)
        throw refuse("a time zone's rule has no readable start");
      // Only a rule is expanded year by year; a single change costs nothing, whatever its year.
      if (ruled && year < EARLIEST_ZONE_YEAR)
        property[3] = `${EARLIEST_ZONE_YEAR}${value.slice(4)}`;
    }
  }
  for (const child of Array.isArray(children) ? children : []) {
    if (Array.isArray(child)) walkZone(child as JCal);
  }
}

/** Why an event's rules are not read (the event is skipped), or null. */
export function eventRuleProblem(event: JCal): string | null {
  for (const property of Array.isArray(event[1]) ? event[1] : []) {
    if (property[0] !== "rrule" && property[0] !== "exrule") continue;
    for (const value of property.slice(3)) {
      const freq = String((value as { freq?: unknown } | null)?.freq ?? "").toUpperCase();
      if (freq === "SECONDLY") return "FREQ=SECONDLY is not supported";
    }
  }
  return null;
}
