import ICAL from "ical.js";
import { Temporal } from "temporal-polyfill";
import { MAX_OCCURRENCES, MAX_UNTIL_DAYS, type SeriesRule } from "./rule";

const DAY_MS = 86_400_000;

/**
 * The starts of a series, first one included, as instants: the rule is
 * expanded by ical.js in floating local time (the first start's wall clock
 * in the location's zone), and each local date-time is then placed in the
 * zone, so a 10:00 appointment stays at 10:00 on both sides of a DST change.
 * A local time that does not exist that day (a DST gap) moves forward, as a
 * single booking's wall-clock times do. Returns what is wrong instead when
 * the rule does not fit a series (its first start is not an occurrence of it,
 * it ends too late, or it makes fewer than 2 or more than 52 occurrences).
 */
export function expandSeries(rule: SeriesRule, first: number, timeZone: string): number[] | string {
  const local = Temporal.Instant.fromEpochMilliseconds(first)
    .toZonedDateTimeISO(timeZone)
    .toPlainDateTime();
  const { end } = rule;
  const until = "until" in end ? end.until : null;
  if (until) {
    const tooLate =
      "date" in until
        ? Temporal.PlainDate.compare(
            Temporal.PlainDate.from(until.date),
            local.toPlainDate().add({ days: MAX_UNTIL_DAYS }),
          ) > 0
        : until.instant - first > MAX_UNTIL_DAYS * DAY_MS;
    if (tooLate) return `UNTIL must be within ${MAX_UNTIL_DAYS} days of the first start.`;
  }
  const within = (at: number, wall: Temporal.PlainDateTime) => {
    if (!until) return true;
    if ("date" in until) return Temporal.PlainDate.compare(wall.toPlainDate(), until.date) <= 0;
    return at <= until.instant;
  };

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
  const wanted = "count" in end ? end.count : MAX_OCCURRENCES + 1;
  const starts: number[] = [];
  while (starts.length < wanted) {
    const next = iterator.next();
    if (!next) break;
    const wall = Temporal.PlainDateTime.from({
      year: next.year,
      month: next.month,
      day: next.day,
      hour: next.hour,
      minute: next.minute,
      second: next.second,
    });
    const at = wall.toZonedDateTime(timeZone, { disambiguation: "compatible" }).epochMilliseconds;
    if (starts.length === 0 && Temporal.PlainDateTime.compare(wall, local) !== 0)
      return "The first start must be an occurrence of the rule (on a weekday BYDAY lists).";
    if (!within(at, wall)) break;
    starts.push(at);
  }
  if (starts.length > MAX_OCCURRENCES)
    return `The rule makes more than ${MAX_OCCURRENCES} occurrences; at most ${MAX_OCCURRENCES} are booked at once.`;
  if (starts.length < 2) return "The rule makes fewer than 2 occurrences before UNTIL.";
  return starts;
}
