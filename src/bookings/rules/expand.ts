import ICAL from "ical.js";
import { Temporal } from "temporal-polyfill";
import { MAX_OCCURRENCES, MAX_SPAN_DAYS, type SeriesRule } from "./rule";

const DAY_MS = 86_400_000;

/**
 * The rule's local date-times from `local` on, in floating time (no zone):
 * the first one the rule makes, then the next, without end. ical.js's own
 * COUNT and UNTIL are not used: the caller stops (an UNTIL instant needs the zone).
 */
function* walls(rule: SeriesRule, local: Temporal.PlainDateTime) {
  const recur = ICAL.Recur.fromData({
    freq: rule.freq,
    interval: rule.interval,
    ...(rule.byDay.length > 0 ? { byday: rule.byDay } : {}),
  });
  const iterator = recur.iterator(
    ICAL.Time.fromData({
      year: local.year,
      month: local.month,
      day: local.day,
      hour: local.hour,
      minute: local.minute,
      second: local.second,
      isDate: false,
    }),
  );
  for (;;) {
    const next = iterator.next();
    if (!next) return;
    yield Temporal.PlainDateTime.from({
      year: next.year,
      month: next.month,
      day: next.day,
      hour: next.hour,
      minute: next.minute,
      second: next.second,
    });
  }
}

/**
 * The starts of a series, first one included, as instants: the rule is
 * expanded by ical.js in floating local time (the first start's wall clock
 * in the location's zone), and each local date-time is then placed in the
 * zone, so a 10:00 appointment stays at 10:00 on both sides of a DST change.
 * A local time that does not exist that day (a DST gap) moves forward, as a
 * single booking's wall-clock times do. Returns what is wrong instead when
 * the rule does not fit a series: its first start is not an occurrence of
 * it, an occurrence (or UNTIL) is more than 366 days after the first start,
 * or it makes fewer than 2 or more than 52 occurrences.
 */
export function expandSeries(rule: SeriesRule, first: number, timeZone: string): number[] | string {
  const local = Temporal.Instant.fromEpochMilliseconds(first)
    .toZonedDateTimeISO(timeZone)
    .toPlainDateTime();
  const { end } = rule;
  const until = "until" in end ? end.until : null;
  const lastDate = local.toPlainDate().add({ days: MAX_SPAN_DAYS });
  if (until) {
    const tooLate =
      "date" in until
        ? Temporal.PlainDate.compare(Temporal.PlainDate.from(until.date), lastDate) > 0
        : until.instant - first > MAX_SPAN_DAYS * DAY_MS;
    if (tooLate) return `UNTIL must be within ${MAX_SPAN_DAYS} days of the first start.`;
  }
  const within = (instant: number, wall: Temporal.PlainDateTime) => {
    if (!until) return true;
    if ("date" in until) return Temporal.PlainDate.compare(wall.toPlainDate(), until.date) <= 0;
    return instant <= until.instant;
  };

  const wanted = "count" in end ? end.count : MAX_OCCURRENCES + 1;
  const starts: number[] = [];
  for (const wall of walls(rule, local)) {
    if (starts.length >= wanted) break;
    if (starts.length === 0 && Temporal.PlainDateTime.compare(wall, local) !== 0)
      return "The first start must be an occurrence of the rule (on a weekday BYDAY lists).";
    const start = wall.toZonedDateTime(timeZone, {
      disambiguation: "compatible",
    }).epochMilliseconds;
    if (!within(start, wall)) break;
    if (Temporal.PlainDate.compare(wall.toPlainDate(), lastDate) > 0)
      return `Every occurrence must be within ${MAX_SPAN_DAYS} days of the first start.`;
    starts.push(start);
  }
  if (starts.length > MAX_OCCURRENCES)
    return `The rule makes more than ${MAX_OCCURRENCES} occurrences; at most ${MAX_OCCURRENCES} are booked at once.`;
  if (starts.length < 2) return "The rule makes fewer than 2 occurrences before UNTIL.";
  return starts;
}

/**
 * The dates (`YYYY-MM-DD`, UTC) a series from `first` can reach, before its
 * location's zone is known: what a planning read must cover so the series is
 * read in the same round trip as the location. The first start's local date
 * is its UTC date or a day either side, and the dates the rule makes depend
 * only on it; an UNTIL bounds them anyway.
 */
export function seriesDateSpan(rule: SeriesRule, first: number): { from: string; to: string } {
  const utc = Temporal.Instant.fromEpochMilliseconds(first)
    .toZonedDateTimeISO("UTC")
    .toPlainDateTime();
  const from = utc.toPlainDate().subtract({ days: 1 });
  let to = utc.toPlainDate().add({ days: 1 });
  const { end } = rule;
  if ("until" in end) {
    const until =
      "date" in end.until
        ? Temporal.PlainDate.from(end.until.date)
        : Temporal.Instant.fromEpochMilliseconds(end.until.instant)
            .toZonedDateTimeISO("UTC")
            .toPlainDate();
    to = until.add({ days: 1 });
  } else {
    for (const shift of [-1, 0, 1]) {
      let n = 0;
      for (const wall of walls(rule, utc.add({ days: shift }))) {
        if (n++ >= end.count) break;
        if (Temporal.PlainDate.compare(wall.toPlainDate(), to) > 0) to = wall.toPlainDate();
      }
    }
  }
  // Never further than a series may reach (a refused rule reads no more than a valid one).
  const cap = from.add({ days: MAX_SPAN_DAYS + 3 });
  if (Temporal.PlainDate.compare(to, cap) > 0) to = cap;
  return { from: from.toString(), to: to.toString() };
}
