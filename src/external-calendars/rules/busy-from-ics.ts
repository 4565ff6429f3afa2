import ICAL from "ical.js";
import { Temporal } from "temporal-polyfill";
import type { Interval } from "../../calendar/rules/types";
import { IcsError, type IcsRefusal } from "./errors";
import { EventTooComplex, metered, StepBudget } from "./meter";
import { type JCal, parseCalendar } from "./parse";
import { eventRuleProblem, prepareTimezones } from "./rules";
import { ensureForeignZone, ensureIanaZone, wallClockOffset } from "./zones";

/** The limits of one calendar (docs/decisions.md, "External calendars (part 1)"). */
export const ICS_LIMITS = {
  /** Bytes of ICS text read at most (the fetch stops at it too). */
  maxBytes: 2 * 1024 * 1024,
  /** Busy occurrences in the window at most (before merging). */
  maxBusy: 5000,
  /**
   * Expansion steps (`meter.ts`: iterator calls, the candidates each tries, days walked) for
   * the whole calendar, VTIMEZONE rules included; past it the calendar is refused.
   */
  maxSteps: 250_000,
  /** Expansion steps of one event at most; past it that event is skipped and reported. */
  maxEventSteps: 50_000,
  /** Components (BEGIN lines) and their nesting at most, counted before ical.js parses. */
  maxComponents: 50_000,
  maxDepth: 10,
  /**
   * VTIMEZONEs at most (ical.js looks a TZID it has not cached up among all of them, for
   * every time it reads), and EXDATE and RDATE values of one event (ical.js sorts them by
   * inserting one at a time). Real calendars have a handful of zones and dozens of exceptions.
   */
  maxZones: 100,
  maxDates: 1000,
  /**
   * Distinct TZID spellings a file may name: each is looked up (and a zone's offsets read)
   * once; real calendars name a handful.
   */
  maxTzids: 100,
} as const;

export interface BusyOptions {
  /** The window starts here (epoch ms): earlier time is not busy any more. */
  now: number;
  /** The window's length in days from `now` (180). */
  days?: number;
  /**
   * The IANA zone that floating times, all-day events and TZIDs that name no zone are read in:
   * the staffer's location's zone.
   */
  defaultZone: string;
  /** Lower limits for tests; never higher than `ICS_LIMITS` in production. */
  limits?: Partial<Record<keyof typeof ICS_LIMITS, number>>;
}

/** What one calendar gives: its busy time, and the VEVENTs left out because they cannot be read. */
export interface BusyReading {
  busy: Interval[];
  /** VEVENTs skipped: unreadable text or values, or a recurrence past its step budget. */
  skipped: number;
  /** Expansion steps taken (`meter.ts`), for tests and benchmarks. */
  steps: number;
}

const DAY_MS = 86_400_000;

/**
 * The busy time an ICS text gives for the window [now, now + days): sorted, overlapping and
 * touching intervals merged, each clipped to the window, UTC epoch ms, end exclusive. Pure:
 * no I/O, no clock. Rules (RFC 5545; docs/decisions.md, "External calendars"):
 * - every VEVENT is busy from DTSTART to DTEND, or DTSTART + DURATION; without either, a
 *   DATE-TIME start lasts no time (not busy) and a DATE start one day (§3.6.1);
 * - an all-day event (DATE values) blocks whole days in `defaultZone`, from the start of its
 *   first day to the start of the day after its last;
 * - a DATE-TIME with a TZID is read in the file's VTIMEZONE of that name, else in the IANA
 *   zone of that name, else in the zone a Windows name or an offset names (`windows-zones.ts`),
 *   else (an unknown name) in `defaultZone`, as a floating time is;
 * - RRULE (and RDATE) occurrences, less EXDATEs; a VEVENT with RECURRENCE-ID replaces the
 *   occurrence it names (its own time, status and transparency); it counts on its own;
 * - `TRANSP:TRANSPARENT` and `STATUS:CANCELLED` are not busy (on the series: none of it;
 *   on an override: that occurrence); TENTATIVE and CONFIRMED are.
 * A VEVENT that cannot be read (its text, a value, FREQ=SECONDLY, more expansion steps than
 * its share) is skipped and counted; the others are read.
 * Throws `IcsError` (`calendar_invalid`) for text over 2 MB, more components or nesting than
 * the limits, text that is not one readable VCALENDAR, a calendar whose every VEVENT is
 * skipped, more than 5,000 busy occurrences in the window, more expansion steps than the
 * calendar's budget, more than 100 VTIMEZONEs or TZIDs, a VTIMEZONE rule that is not YEARLY,
 * or an event with more than 1,000 EXDATE and RDATE values.
 */
export function readBusy(text: string, options: BusyOptions): BusyReading {
  const limits = { ...ICS_LIMITS, ...options.limits };
  const window = { start: options.now, end: options.now + (options.days ?? 180) * DAY_MS };
  if (text.length > limits.maxBytes || new TextEncoder().encode(text).length > limits.maxBytes)
    throw new IcsError("too_large", `The calendar is larger than ${limits.maxBytes} bytes.`);
  const { events, unreadableEvents } = readEvents(text, limits);
  const budget = new StepBudget(limits.maxSteps, limits.maxEventSteps);
  const reader = new Reader(options.defaultZone, window, limits, budget);
  let skipped = unreadableEvents;
  let firstSkip: IcsRefusal | null = unreadableEvents > 0 ? "unreadable" : null;
  // One event: what it adds is kept only if all of it could be read.
  const each = (event: ICAL.Component, read: () => void) => {
    budget.startEvent();
    try {
      const problem = eventRuleProblem(event.jCal as JCal);
      if (problem) throw new EventTooComplex();
      reader.begin();
      read();
      reader.commit();
    } catch (error) {
      reader.rollback();
      if (error instanceof IcsError) throw error;
      // ical.js decodes values lazily: a value that does not parse throws here. Its message
      // quotes the value: a private calendar's text stays out of answers and logs.
      skipped++;
      firstSkip ??= error instanceof EventTooComplex ? "too_complex" : "unreadable";
    }
  };
  metered(budget, () => {
    // Overrides by UID: each replaces one occurrence of its series, and is busy on its own.
    const overrides = new Map<string, number[]>();
    for (const event of events) {
      if (!event.hasProperty("recurrence-id")) continue;
      each(event, () => {
        reader.prepareZones(event);
        const uid = String(event.getFirstPropertyValue("uid") ?? "");
        const replaced = reader.instant(event.getFirstPropertyValue("recurrence-id"));
        reader.single(event);
        if (replaced !== null) overrides.set(uid, [...(overrides.get(uid) ?? []), replaced]);
      });
    }
    for (const event of events) {
      if (event.hasProperty("recurrence-id")) continue;
      each(event, () => {
        reader.prepareZones(event);
        const uid = String(event.getFirstPropertyValue("uid") ?? "");
        reader.series(event, new Set(overrides.get(uid) ?? []));
      });
    }
  });
  // Set inside `each`: TypeScript does not see it change.
  const reason = firstSkip as IcsRefusal | null;
  if (skipped > 0 && skipped === events.length + unreadableEvents)
    throw new IcsError(
      reason ?? "unreadable",
      reason === "too_complex"
        ? "The calendar has no event that can be expanded within the limits."
        : "The calendar has no event that can be read.",
    );
  return { busy: merge(reader.busy), skipped, steps: budget.total };
}

/** `readBusy`'s busy time alone. */
export function busyFromIcs(text: string, options: BusyOptions): Interval[] {
  return readBusy(text, options).busy;
}

/**
 * The calendar's VEVENTs, each under a parent that holds only the file's VTIMEZONEs: ical.js
 * looks a TZID up among its root's subcomponents (all of them, filtered by name) every time a
 * TZID it has not cached is decoded, so under the real root a 2,000-event file with IANA TZIDs
 * (not cached: no VTIMEZONE) scans 2,000 components per time read.
 */
function readEvents(
  text: string,
  limits: Record<keyof typeof ICS_LIMITS, number>,
): { events: ICAL.Component[]; unreadableEvents: number } {
  const { calendar, unreadableEvents } = parseCalendar(text, limits);
  prepareTimezones(calendar);
  const children = calendar[2] as unknown[][];
  const timezones = children.filter((c) => Array.isArray(c) && c[0] === "vtimezone");
  if (timezones.length > limits.maxZones)
    throw new IcsError(
      "too_complex",
      `The calendar defines more than ${limits.maxZones} time zones.`,
    );
  const zones = new ICAL.Component(["vcalendar", [], timezones]);
  const events = children
    .filter((c) => Array.isArray(c) && c[0] === "vevent")
    .map((c) => {
      // jCal properties are [name, parameters, type, ...values]: counted before ical.js reads them.
      const properties = (Array.isArray(c[1]) ? c[1] : []) as unknown[][];
      const dates = properties
        .filter((p) => p[0] === "exdate" || p[0] === "rdate")
        .reduce((sum, p) => sum + Math.max(0, p.length - 3), 0);
      if (dates > limits.maxDates)
        throw new IcsError(
          "too_complex",
          `An event of the calendar has more than ${limits.maxDates} EXDATE and RDATE values.`,
        );
      return new ICAL.Component(c, zones);
    });
  return { events, unreadableEvents };
}

type Time = ICAL.Time;

/** Reads the events of one calendar into busy intervals, counting against the limits. */
class Reader {
  readonly busy: Interval[] = [];
  /** What the event being read adds; kept by `commit`, dropped by `rollback`. */
  private pending: Interval[] = [];

  constructor(
    private readonly defaultZone: string,
    private readonly window: Interval,
    private readonly limits: Record<keyof typeof ICS_LIMITS, number>,
    private readonly budget: StepBudget,
  ) {}

  /**
   * Makes every TZID the event names known to ical.js before any of its values is decoded
   * (values decode lazily, on first read): the file's VTIMEZONE wins; an IANA name is
   * registered from the runtime's data under its canonical spelling, and the property is
   * pointed at that spelling (so no spelling of a file adds to ical.js's shared zone service);
   * anything else stays floating (read in defaultZone). At most `maxTzids` distinct names.
   */
  prepareZones(event: ICAL.Component) {
    for (const property of event.getAllProperties()) {
      const tzid = property.getParameter("tzid");
      if (typeof tzid !== "string" || tzid.length === 0) continue;
      let known = this.zones.get(tzid);
      if (known === undefined) {
        if (this.zones.size >= this.limits.maxTzids)
          throw new IcsError(
            "too_complex",
            `The calendar names more than ${this.limits.maxTzids} time zones.`,
          );
        known = event.parent?.getTimeZoneByID(tzid)
          ? tzid
          : (ensureIanaZone(tzid) ?? ensureForeignZone(tzid) ?? tzid);
        this.zones.set(tzid, known);
      }
      if (known !== tzid) property.setParameter("tzid", known);
    }
  }

  /** TZIDs as the file spells them → the name ical.js knows them by (the same when unknown). */
  private readonly zones = new Map<string, string>();

  begin() {
    this.pending = [];
  }

  commit() {
    for (const interval of this.pending) this.busy.push(interval);
    this.pending = [];
  }

  rollback() {
    this.pending = [];
  }

  /** A time as UTC epoch ms: zoned and UTC times by their zone, floating ones in defaultZone. */
  instant(value: unknown): number | null {
    if (!(value instanceof ICAL.Time)) return null;
    if (value.isDate) return this.dayStart(value);
    if (value.zone && value.zone !== ICAL.Timezone.localTimezone) return value.toUnixTime() * 1000;
    const wall = Date.UTC(
      value.year,
      value.month - 1,
      value.day,
      value.hour,
      value.minute,
      value.second,
    );
    return wall - wallClockOffset(this.defaultZone, value) * 1000;
  }

  /** The start of a date's day in defaultZone. */
  private dayStart(date: Time): number {
    const wall = {
      year: date.year,
      month: date.month,
      day: date.day,
      hour: 0,
      minute: 0,
      second: 0,
    };
    return (
      Date.UTC(date.year, date.month - 1, date.day) - wallClockOffset(this.defaultZone, wall) * 1000
    );
  }

  private isBusy(event: ICAL.Component): boolean {
    const status = String(event.getFirstPropertyValue("status") ?? "").toUpperCase();
    const transparency = String(event.getFirstPropertyValue("transp") ?? "").toUpperCase();
    return status !== "CANCELLED" && transparency !== "TRANSPARENT";
  }

  /** One occurrence, as instants. */
  private add(from: number | null, to: number | null) {
    if (from === null || to === null || to <= from) return;
    if (to <= this.window.start || from >= this.window.end) return;
    if (this.busy.length + this.pending.length >= this.limits.maxBusy)
      throw new IcsError(
        "too_many_busy",
        `The calendar has more than ${this.limits.maxBusy} busy events in the next days.`,
      );
    this.pending.push({
      start: Math.max(from, this.window.start),
      end: Math.min(to, this.window.end),
    });
  }

  /**
   * How an event's occurrences end, from each one's start (RFC 5545 §3.6.1, §3.8.5.3):
   * - all-day: as many days as DTEND (or DURATION) gives, whole days in defaultZone;
   * - DTEND: the exact time between DTSTART and DTEND after every start;
   * - DURATION: its days and weeks on the wall clock (a day is 23 hours on a spring-forward
   *   day), its hours, minutes and seconds exactly: PT30M at 02:30 on a fall-back night ends
   *   half an hour later, not at 03:00 wall-clock an hour and a half later, as ical.js's
   *   wall-clock addition would have it;
   * - neither: a date-time start lasts no time (null: not busy), a date one day.
   */
  private ending(event: ICAL.Event): (start: Time) => number | null {
    const component = event.component;
    const first = event.startDate;
    const dtend = component.getFirstPropertyValue("dtend");
    const duration = component.getFirstPropertyValue("duration");
    if (first.isDate) {
      const days = Math.round(event.duration.toSeconds() / 86_400);
      return (start) => {
        const end = start.clone();
        end.day += days;
        return this.instant(end);
      };
    }
    if (dtend instanceof ICAL.Time) {
      const from = this.instant(first);
      const to = this.instant(dtend);
      if (from === null || to === null) return () => null;
      return (start) => {
        const begins = this.instant(start);
        return begins === null ? null : begins + (to - from);
      };
    }
    if (duration instanceof ICAL.Duration) {
      const sign = duration.isNegative ? -1 : 1;
      const days = sign * (duration.weeks * 7 + duration.days);
      const exact =
        sign * (duration.hours * 3600 + duration.minutes * 60 + duration.seconds) * 1000;
      return (start) => {
        const end = start.clone();
        end.day += days;
        const nominal = this.instant(end);
        return nominal === null ? null : nominal + exact;
      };
    }
    return () => null;
  }

  /** A VEVENT that is one occurrence (an override): its own start and end. */
  single(component: ICAL.Component) {
    if (!this.isBusy(component) || !component.hasProperty("dtstart")) return;
    const event = new ICAL.Event(component, { exceptions: [] });
    const start = event.startDate;
    this.add(this.instant(start), this.ending(event)(start));
  }

  /**
   * A VEVENT and its recurrences (one occurrence when it has neither RRULE nor RDATE), less
   * EXDATEs (ical.js's expansion) and less the occurrences an override replaces.
   */
  series(component: ICAL.Component, replaced: ReadonlySet<number>) {
    if (!this.isBusy(component) || !component.hasProperty("dtstart")) return;
    // An EXDATE that cannot be read (Google writes `EXDATE:20200116`, a date without
    // VALUE=DATE, in date-time series) excludes nothing: the series stays busy there, rather
    // than the whole series being left out.
    for (const exdate of component.getAllProperties("exdate")) {
      try {
        exdate.getValues();
      } catch {
        component.removeProperty(exdate);
      }
    }
    // No exceptions related: overrides were read on their own (relating them scans every
    // VEVENT of the calendar per series).
    const event = new ICAL.Event(component, { exceptions: [] });
    const start = event.startDate;
    // A date-time start without DTEND or DURATION lasts no time: none of its series is busy.
    if (!start.isDate && !component.hasProperty("dtend") && !component.hasProperty("duration"))
      return;
    const ending = this.ending(event);
    if (!event.isRecurring()) {
      this.add(this.instant(start), ending(start));
      return;
    }
    if (!start.isDate) this.untilInStartZone(component, start);
    const rules = component.getAllProperties("rrule").map((p) => p.getFirstValue());
    const monthDays =
      rules.length === 1 && rules[0] instanceof ICAL.Recur ? monthDaysOf(rules[0]) : null;
    const expansion = event.iterator(this.fastForward(component, start, event.duration));
    // Every step ical.js takes is charged to the calendar's budget (`metered`); an occurrence
    // it returns costs more (EXDATE checks, a copy, the conversion below), and is charged so.
    for (let next = expansion.next(); next; next = expansion.next()) {
      this.budget.charge(OCCURRENCE_STEPS);
      const begins = this.instant(next);
      if (begins === null || begins >= this.window.end) break;
      if (replaced.has(begins)) continue;
      // ical.js rolls an invalid date over (30 February → 2 March); RFC 5545 §3.3.10 ignores it.
      if (monthDays && !monthDays(next)) continue;
      this.add(begins, ending(next));
    }
  }

  /**
   * Where the expansion may start instead of DTSTART: a series without COUNT, RDATE or
   * BYSETPOS has the same occurrences from any start a whole number of periods later
   * (FREQ × INTERVAL: minutes, hours, days or weeks of wall-clock time, as ical.js steps), so
   * an old series (a daily one since 2010, every minute since 2000) starts near the window
   * instead of iterating years of the past. The new start is built from its normalised
   * wall-clock fields: ical.js's own addition leaves a time's fields un-normalised (minute
   * 12,000,000), and its iterator copies those raw fields, stepping from nonsense. The start
   * is kept two periods, the event's length and 15 hours before the window: ical.js
   * always returns the start itself, and a weekly rule's first week may differ. MONTHLY and
   * YEARLY series start at DTSTART (12 or 1 steps a year). Undefined when it must start at
   * DTSTART.
   */
  private fastForward(component: ICAL.Component, start: Time, duration: ICAL.Duration) {
    if (component.hasProperty("rdate")) return undefined;
    const rules = component.getAllProperties("rrule");
    const rule = rules.length === 1 ? rules[0]?.getFirstValue() : undefined;
    if (!(rule instanceof ICAL.Recur) || rule.count || rule.parts.BYSETPOS) return undefined;
    const seconds = PERIOD_SECONDS[rule.freq];
    if (seconds === undefined) return undefined;
    const from = this.instant(start);
    if (from === null) return undefined;
    const periodMs = seconds * Math.max(1, rule.interval || 1) * 1000;
    // DST moves wall-clock time by an hour; a start before 1970 in a file's VTIMEZONE (read
    // from 1970 on: rules.ts) may be placed up to 14 hours off: the margin covers both.
    const margin = 2 * periodMs + Math.max(0, duration.toSeconds()) * 1000 + 15 * 3_600_000;
    const skip = Math.floor((this.window.start - margin - from) / periodMs);
    if (!(skip > 0)) return undefined;
    const wall = Date.UTC(
      start.year,
      start.month - 1,
      start.day,
      start.hour,
      start.minute,
      start.second,
    );
    const later = new Date(wall + skip * periodMs);
    return new ICAL.Time(
      {
        year: later.getUTCFullYear(),
        month: later.getUTCMonth() + 1,
        day: later.getUTCDate(),
        hour: later.getUTCHours(),
        minute: later.getUTCMinutes(),
        second: later.getUTCSeconds(),
        isDate: start.isDate,
      },
      start.zone,
    );
  }

  /**
   * RFC 5545 wants UNTIL in the form of DTSTART (UTC when DTSTART has a zone); files send
   * other forms, and ical.js compares them as if floating time were UTC:
   * - a floating UNTIL with a zoned DTSTART is read in DTSTART's zone (a New York series
   *   "until 10:00" keeps its 10:00 New York occurrence);
   * - a UTC UNTIL with a floating DTSTART (no TZID, or one that names no zone) becomes
   *   defaultZone's wall-clock time.
   * Either way the last occurrence is kept or dropped at the right instant.
   */
  private untilInStartZone(component: ICAL.Component, start: Time) {
    const floating = start.zone === ICAL.Timezone.localTimezone || !start.zone;
    for (const property of component.getAllProperties("rrule")) {
      const rule = property.getFirstValue();
      if (!(rule instanceof ICAL.Recur) || !rule.until || rule.until.isDate) continue;
      const until = rule.until;
      const untilFloating = until.zone === ICAL.Timezone.localTimezone || !until.zone;
      if (!floating && untilFloating && start.zone !== ICAL.Timezone.utcTimezone) {
        rule.until = new ICAL.Time(
          {
            year: until.year,
            month: until.month,
            day: until.day,
            hour: until.hour,
            minute: until.minute,
            second: until.second,
            isDate: false,
          },
          start.zone,
        );
        continue;
      }
      if (!floating || until.zone !== ICAL.Timezone.utcTimezone) continue;
      const local = Temporal.Instant.fromEpochMilliseconds(
        until.toUnixTime() * 1000,
      ).toZonedDateTimeISO(this.defaultZone);
      rule.until = new ICAL.Time(
        {
          year: local.year,
          month: local.month,
          day: local.day,
          hour: local.hour,
          minute: local.minute,
          second: local.second,
          isDate: false,
        },
        ICAL.Timezone.localTimezone,
      );
    }
  }
}

/**
 * What an occurrence returned costs in steps, beyond ical.js's own: measured at about five
 * times one pass of its search, so the budget follows CPU time whichever way it is spent.
 */
const OCCURRENCE_STEPS = 4;

const PERIOD_SECONDS: Partial<Record<string, number>> = {
  WEEKLY: 7 * 86_400,
  DAILY: 86_400,
  HOURLY: 3_600,
  MINUTELY: 60,
};

/** Whether an occurrence's day is one of the rule's BYMONTHDAYs; null for a rule without them. */
function monthDaysOf(rule: ICAL.Recur): ((time: Time) => boolean) | null {
  const days = rule.parts.BYMONTHDAY;
  if (!days || days.length === 0) return null;
  return (time) => {
    const length = ICAL.Time.daysInMonth(time.month, time.year);
    return days.some((d) => (d > 0 ? d === time.day : length + 1 + d === time.day));
  };
}

/** Sorted by start; overlapping and touching intervals become one. */
function merge(intervals: Interval[]): Interval[] {
  const sorted = [...intervals].sort((a, b) => a.start - b.start || a.end - b.end);
  const merged: Interval[] = [];
  for (const interval of sorted) {
    const last = merged.at(-1);
    if (last && interval.start <= last.end) last.end = Math.max(last.end, interval.end);
    else merged.push({ ...interval });
  }
  return merged;
}
