/**
 * Rules for a staffer's working time: intervals must run forwards, sit in the
 * staffer's own locations, and never overlap on the same day (a person cannot
 * work two places at once).
 */

import type { Problem } from "../../platform/rules/problems";
export interface WeeklyIntervalInput {
  location_uuid: string;
  weekday: number;
  start: string;
  end: string;
}

export interface OverrideInput {
  location_uuid: string;
  date: string;
  intervals: { start: string; end: string }[];
}

/**
 * What a schedule can be wrong about: a weekly interval (or the location it
 * names), an override's location or date, or one interval of an override.
 */
export type ScheduleSubject =
  | { is: "interval"; interval: number }
  | { is: "interval location"; interval: number }
  | { is: "override location"; override: number }
  | { is: "override date"; override: number }
  | { is: "override interval"; override: number; interval: number };

/** Problems in the order first found, each subject once with all its messages. */
class Problems {
  readonly #bySubject = new Map<string, { about: ScheduleSubject; messages: string[] }>();

  add(about: ScheduleSubject, message: string) {
    const key = JSON.stringify(about);
    const found = this.#bySubject.get(key);
    if (found) found.messages.push(message);
    else this.#bySubject.set(key, { about, messages: [message] });
  }

  list(): Problem<ScheduleSubject>[] {
    return [...this.#bySubject.values()];
  }
}

const minutes = (hhmm: string) => {
  const [h, m] = hhmm.split(":").map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
};

function checkDay(
  problems: Problems,
  entries: { about: ScheduleSubject; start: string; end: string }[],
) {
  const sorted = entries
    .map((e) => ({ ...e, s: minutes(e.start), e: minutes(e.end) }))
    .sort((a, b) => a.s - b.s);
  for (const entry of sorted) {
    if (entry.e <= entry.s) problems.add(entry.about, "The end must be after the start.");
  }
  for (let i = 1; i < sorted.length; i++) {
    const prev = sorted[i - 1];
    const cur = sorted[i];
    if (prev && cur && cur.s < prev.e)
      problems.add(cur.about, "Overlaps another interval of the same day.");
  }
}

export function validateSchedule(
  intervals: WeeklyIntervalInput[],
  overrides: OverrideInput[],
  stafferLocationIds: ReadonlySet<string>,
): Problem<ScheduleSubject>[] {
  const problems = new Problems();
  const byWeekday = new Map<number, { about: ScheduleSubject; start: string; end: string }[]>();
  intervals.forEach((interval, i) => {
    if (!stafferLocationIds.has(interval.location_uuid)) {
      problems.add(
        { is: "interval location", interval: i },
        "The staffer is not attached to this location.",
      );
    }
    const day = byWeekday.get(interval.weekday) ?? [];
    day.push({ about: { is: "interval", interval: i }, start: interval.start, end: interval.end });
    byWeekday.set(interval.weekday, day);
  });
  for (const day of byWeekday.values()) checkDay(problems, day);

  const seenDates = new Set<string>();
  overrides.forEach((override, i) => {
    if (!stafferLocationIds.has(override.location_uuid)) {
      problems.add(
        { is: "override location", override: i },
        "The staffer is not attached to this location.",
      );
    }
    const key = `${override.location_uuid}/${override.date}`;
    if (seenDates.has(key)) {
      problems.add({ is: "override date", override: i }, "This date is overridden twice.");
    }
    seenDates.add(key);
    checkDay(
      problems,
      override.intervals.map((iv, j) => ({
        about: { is: "override interval", override: i, interval: j },
        ...iv,
      })),
    );
  });
  return problems.list();
}
