import type { AuditInterval, CalendarAudit, CalendarEntry } from "./types";

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

const owner = (e: CalendarEntry) =>
  e.kind === "blocked"
    ? { blocked_spot_uuid: e.source }
    : e.kind === "held"
      ? { reservation_uuid: e.source }
      : e.kind === "external"
        ? { external_calendar_uuid: e.source }
        : { booking_uuid: e.source };

const interval = (e: CalendarEntry): AuditInterval => ({
  ...owner(e),
  starts_at: iso(e.start),
  ends_at: iso(e.end),
});

/** A session's entry must agree on its seats too (the seats are what the calendar counts). */
const key = (e: CalendarEntry) =>
  `${e.id}|${e.start}|${e.end}|${e.session?.key ?? ""}|${e.session?.seats ?? ""}`;

/** Compares a calendar object's intervals with D1's: same ids at the same times, nothing else. */
export function compareCalendars(calendar: CalendarEntry[], d1: CalendarEntry[]): CalendarAudit {
  const inCalendar = new Set(calendar.map(key));
  const inD1 = new Set(d1.map(key));
  const onlyInCalendar = calendar.filter((e) => !inD1.has(key(e))).map(interval);
  const onlyInD1 = d1.filter((e) => !inCalendar.has(key(e))).map(interval);
  return {
    in_sync: onlyInCalendar.length === 0 && onlyInD1.length === 0,
    only_in_calendar: onlyInCalendar,
    only_in_d1: onlyInD1,
  };
}
