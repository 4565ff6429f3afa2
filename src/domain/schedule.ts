/**
 * Rules for a staffer's working time: intervals must run forwards, sit in the
 * staffer's own locations, and never overlap on the same day (a person cannot
 * work two places at once).
 */
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

export type Problems = Record<string, string[]>;

const minutes = (hhmm: string) => {
  const [h, m] = hhmm.split(":").map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
};

function add(problems: Problems, field: string, message: string) {
  problems[field] = [...(problems[field] ?? []), message];
}

function checkDay(problems: Problems, entries: { field: string; start: string; end: string }[]) {
  const sorted = entries
    .map((e) => ({ ...e, s: minutes(e.start), e: minutes(e.end) }))
    .sort((a, b) => a.s - b.s);
  for (const entry of sorted) {
    if (entry.e <= entry.s) add(problems, entry.field, "The end must be after the start.");
  }
  for (let i = 1; i < sorted.length; i++) {
    const prev = sorted[i - 1];
    const cur = sorted[i];
    if (prev && cur && cur.s < prev.e)
      add(problems, cur.field, "Overlaps another interval of the same day.");
  }
}

export function validateSchedule(
  intervals: WeeklyIntervalInput[],
  overrides: OverrideInput[],
  stafferLocationIds: ReadonlySet<string>,
  fieldPrefix = "",
): Problems {
  const problems: Problems = {};
  const byWeekday = new Map<number, { field: string; start: string; end: string }[]>();
  intervals.forEach((interval, i) => {
    const field = `${fieldPrefix}intervals.${i}`;
    if (!stafferLocationIds.has(interval.location_uuid)) {
      add(problems, `${field}.location_uuid`, "The staffer is not attached to this location.");
    }
    const day = byWeekday.get(interval.weekday) ?? [];
    day.push({ field, start: interval.start, end: interval.end });
    byWeekday.set(interval.weekday, day);
  });
  for (const day of byWeekday.values()) checkDay(problems, day);

  const seenDates = new Set<string>();
  overrides.forEach((override, i) => {
    const field = `${fieldPrefix}overrides.${i}`;
    if (!stafferLocationIds.has(override.location_uuid)) {
      add(problems, `${field}.location_uuid`, "The staffer is not attached to this location.");
    }
    const key = `${override.location_uuid}/${override.date}`;
    if (seenDates.has(key)) add(problems, `${field}.date`, "This date is overridden twice.");
    seenDates.add(key);
    checkDay(
      problems,
      override.intervals.map((iv, j) => ({ field: `${field}.intervals.${j}`, ...iv })),
    );
  });
  return problems;
}
