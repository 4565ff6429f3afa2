import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ical from "node-ical";
import { describe, expect, it } from "vitest";
import { readBusy } from "../../../src/external-calendars/rules";

/**
 * Real-world exports (test/fixtures/ics/real, README there: products, sources, licences), each
 * read by us and by an independent parser, node-ical (its own line parser, RRULE expansion by
 * rrule-temporal, Windows zone table), with our rules applied to its instances: transparent and
 * cancelled ones are not busy, a date-time start without an end lasts no time, overlapping and
 * touching times merge, all clipped to the window. Both read in UTC (floating and all-day
 * times in the salon's zone: UTC here, node-ical's process zone under vitest). The window is
 * 400 days from a day before the file's first event.
 */

const DIR = join(process.cwd(), "test/fixtures/ics/real");
const DAY = 86_400_000;
const FILES = readdirSync(DIR).filter((f) => f.endsWith(".ics"));

type Pair = [string, string];
const iso = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");

interface NodeIcalEvent {
  type: string;
  start?: Date;
  recurrenceid?: unknown;
  transparency?: string;
  status?: string;
}

function merged(intervals: { start: number; end: number }[], from: number, to: number): Pair[] {
  const sorted = intervals
    .map((i) => ({ start: Math.max(i.start, from), end: Math.min(i.end, to) }))
    .filter((i) => i.end > i.start)
    .sort((a, b) => a.start - b.start || a.end - b.end);
  const out: { start: number; end: number }[] = [];
  for (const i of sorted) {
    const last = out.at(-1);
    if (last && i.start <= last.end) last.end = Math.max(last.end, i.end);
    else out.push({ ...i });
  }
  return out.map((i) => [iso(i.start), iso(i.end)]);
}

/** node-ical's reading of the file, as busy time by our rules; null when it cannot read it. */
function independent(text: string, from: number, to: number): Pair[] | null {
  let data: Record<string, NodeIcalEvent>;
  try {
    data = ical.sync.parseICS(text) as unknown as Record<string, NodeIcalEvent>;
  } catch {
    return null;
  }
  const intervals: { start: number; end: number }[] = [];
  for (const event of Object.values(data)) {
    if (event.type !== "VEVENT" || event.recurrenceid) continue;
    const instances = ical.expandRecurringEvent(event as never, {
      from: new Date(from),
      to: new Date(to),
      expandOngoing: true,
    });
    for (const instance of instances) {
      const own = instance.event as unknown as NodeIcalEvent;
      if (own.transparency === "TRANSPARENT" || own.status === "CANCELLED") continue;
      intervals.push({ start: +instance.start, end: +instance.end });
    }
  }
  return merged(intervals, from, to);
}

/** The window of a file: from a day before its first event's start, 400 days. */
function windowOf(text: string): { from: number; to: number } {
  const starts = [...text.matchAll(/^DTSTART.*:(\d{8})/gmu)].map((m) => {
    const d = m[1] ?? "";
    return Date.UTC(+d.slice(0, 4), +d.slice(4, 6) - 1, +d.slice(6, 8));
  });
  const events = text
    .split(/BEGIN:VEVENT/u)
    .slice(1)
    .join("");
  const eventStarts = [...events.matchAll(/^DTSTART.*:(\d{8})/gmu)].map((m) => {
    const d = m[1] ?? "";
    return Date.UTC(+d.slice(0, 4), +d.slice(4, 6) - 1, +d.slice(6, 8));
  });
  const from =
    Math.min(...(eventStarts.length > 0 ? eventStarts : starts), Date.UTC(2030, 0, 1)) - DAY;
  return { from, to: from + 400 * DAY };
}

function ours(text: string, from: number, to: number) {
  const reading = readBusy(text, { now: from, days: (to - from) / DAY, defaultZone: "UTC" });
  return {
    busy: reading.busy.map((i): Pair => [iso(i.start), iso(i.end)]),
    skipped: reading.skipped,
  };
}

/**
 * Where we read a file differently from node-ical, on purpose: what we read instead, and why.
 */
const DIFFERENT: Record<string, { why: string; busy?: Pair[]; skipped?: number }> = {
  "node-ical--ms_timezones.ics": {
    why: 'One transparent event\'s TZID is quoted around its value too (`TZID="W. Europe Standard Time:2020…"`): ical.js cannot read the line, node-ical drops the quotes. We leave that event out and count it; it is transparent, so the busy time is the same.',
    skipped: 1,
  },
  "node-ical--mixed-timezone-handling.ics": {
    why: "`DTSTART:20021028` (a date without VALUE=DATE) is no date-time: we leave that event out and count it, node-ical reads a date. Another event covers the same day: the busy time is the same.",
    skipped: 1,
  },
  "node-ical--bad_custom_ms_tz.ics": {
    why: "An all-day event with a negative DURATION (-PT1W1D2H3M4S) ends before it starts: no busy time for us, one day for node-ical. A TZID `tzone://Microsoft/Custom` with no VTIMEZONE is read in the salon's zone (UTC here) by both.",
    busy: [["2021-03-25T10:35:00Z", "2021-03-25T11:50:00Z"]],
  },
  "node-ical--test_with_multiple_tzids_in_vtimezone.ics": {
    why: "A floating DTSTART (no TZID) is the salon's local time (RFC 5545 §3.3.5; UTC here); node-ical reads it in the file's one VTIMEZONE (Los Angeles).",
    busy: [["2024-06-27T00:00:00Z", "2024-06-27T23:00:00Z"]],
  },
  "icaljs--google_birthday.ics": {
    why: "Two overrides (RECURRENCE-ID) whose series is not in the file: each is busy on its own for us (the occurrence it describes happens), node-ical drops them.",
    busy: [
      ["2012-12-10T00:00:00Z", "2012-12-11T00:00:00Z"],
      ["2013-12-10T00:00:00Z", "2013-12-11T00:00:00Z"],
    ],
  },
  "icalendar--issue_165_missing_event.ics": {
    why: "node-ical cannot read `BYDAY=MO, TU, WE, TH, FR` (spaces, as Exchange CDO writes it): it throws. We take the spaces out: weekdays 10:00–10:30 in the file's zone (UTC+2 in July 2015), 3 to 22 July.",
    busy: [3, 6, 7, 8, 9, 10, 13, 14, 15, 16, 17, 20, 21, 22].map((d): Pair => {
      const day = String(d).padStart(2, "0");
      return [`2015-07-${day}T08:00:00Z`, `2015-07-${day}T08:30:00Z`];
    }),
  },
};

describe("real calendars: our busy time equals an independent parser's reading", () => {
  it("the corpus has 20 files or more", () => {
    expect(FILES.length).toBeGreaterThanOrEqual(20);
  });

  it.each(FILES)("%s", (file) => {
    const text = readFileSync(join(DIR, file), "utf8");
    const { from, to } = windowOf(text);
    const mine = ours(text, from, to);
    const known = DIFFERENT[file];
    if (known) {
      expect(known.why).not.toBe("");
      expect(mine.busy).toEqual(known.busy ?? independent(text, from, to));
      expect(mine.skipped).toBe(known.skipped ?? 0);
      return;
    }
    expect(mine.skipped).toBe(0);
    expect(mine.busy).toEqual(independent(text, from, to));
  });
});
