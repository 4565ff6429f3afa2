import { ICS_LIMITS, IcsError, readBusy } from "../src/external-calendars/rules";

/**
 * `npm run bench -- --ics-worst`: the CPU time of the most expensive calendars we could build
 * within the limits (2 MB, the component and nesting limits, the step budgets), read under
 * Node: each shape once cold and then the worst of five warm runs, in CPU milliseconds
 * (process.cpuUsage). Nothing is asserted; the unit tests count steps instead.
 */
const NOW = Date.parse("2027-03-01T00:00:00Z");
const MAX = ICS_LIMITS.maxBytes;

const calendar = (parts: string[]) =>
  ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//bench//EN", ...parts, "END:VCALENDAR", ""].join(
    "\r\n",
  );
const vevent = (uid: string, lines: string[]) =>
  ["BEGIN:VEVENT", `UID:${uid}`, "DTSTAMP:20270101T000000Z", ...lines, "END:VEVENT"].join("\r\n");

/** A zoned rule whose BY parts never match: every step is a pass of ical.js's search. */
const hostile = (k: number, rule: string) =>
  vevent(`h${k}`, [
    "DTSTART;TZID=Europe/Berlin:20000101T000000",
    "DTEND;TZID=Europe/Berlin:20000101T000100",
    `RRULE:${rule}`,
  ]);

/** Fills the text up to the byte limit with events made by `make`. */
function filled(head: string[], make: (k: number) => string): string {
  const parts = [...head];
  let size = calendar(parts).length;
  for (let k = 0; ; k++) {
    const next = make(k);
    if (size + next.length + 2 > MAX || parts.length >= ICS_LIMITS.maxComponents - 2) break;
    parts.push(next);
    size += next.length + 2;
  }
  return calendar(parts);
}

const SHAPES: Record<string, () => string> = {
  // Hostile events until the calendar's budget refuses the whole text.
  "hourly never-matching ×6 (refused at the calendar budget)": () =>
    calendar(
      Array.from({ length: 6 }, (_, k) => hostile(k, "FREQ=HOURLY;BYMONTH=4;BYMONTHDAY=31")),
    ),
  "minutely never-matching ×6 (refused at the calendar budget)": () =>
    calendar(
      Array.from({ length: 6 }, (_, k) => hostile(k, "FREQ=MINUTELY;BYMONTH=2;BYMONTHDAY=30")),
    ),
  // Four hostile events (skipped, just under the budget) and 2 MB of zoned weekly series.
  "4 hostile + 2 MB of weekly zoned series": () =>
    filled(
      Array.from({ length: 4 }, (_, k) => hostile(k, "FREQ=HOURLY;BYMONTH=4;BYMONTHDAY=31")),
      (k) =>
        vevent(`w${k}`, [
          `DTSTART;TZID=America/New_York:2026${String((k % 12) + 1).padStart(2, "0")}01T0${k % 10}0000`,
          `DTEND;TZID=America/New_York:2026${String((k % 12) + 1).padStart(2, "0")}01T0${k % 10}3000`,
          "RRULE:FREQ=WEEKLY;BYDAY=MO,WE;COUNT=4",
          "EXDATE;TZID=America/New_York:20270301T090000",
        ]),
    ),
  // The most components the pre-scan lets through, each a tiny event.
  "50,000 tiny events (2 MB)": () =>
    filled([], (k) => `BEGIN:VEVENT\r\nUID:${k}\r\nDTSTART:20270305T090000Z\r\nEND:VEVENT`),
  // 5,000 busy occurrences (the limit) from one series, and nesting at the depth limit.
  "5,000 busy minutes, nesting at the limit": () =>
    calendar([
      vevent("m", [
        "DTSTART:20270301T000000Z",
        "DTEND:20270301T000100Z",
        "RRULE:FREQ=MINUTELY;INTERVAL=30;COUNT=5000",
        ...Array.from({ length: ICS_LIMITS.maxDepth - 2 }, () => "BEGIN:X-N"),
        ...Array.from({ length: ICS_LIMITS.maxDepth - 2 }, () => "END:X-N"),
      ]),
    ]),
};

function cpuMs(run: () => void): number {
  const before = process.cpuUsage();
  run();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

/** The cheapest shape: the test suite's tiny run reads only it. */
export const CHEAPEST_SHAPE = "5,000 busy minutes, nesting at the limit";

export function runIcsWorstBench(runs = 5, shapes = Object.keys(SHAPES)) {
  let worst = { name: "", ms: 0 };
  for (const [name, build] of Object.entries(SHAPES).filter(([name]) => shapes.includes(name))) {
    const text = build();
    let outcome = "";
    const read = () => {
      try {
        const reading = readBusy(text, { now: NOW, defaultZone: "Europe/Berlin" });
        outcome = `${reading.busy.length} busy, ${reading.skipped} skipped, ${reading.steps} steps`;
      } catch (error) {
        outcome = error instanceof IcsError ? `422 (${error.reason})` : `error ${String(error)}`;
      }
    };
    const cold = cpuMs(read);
    const warm = Math.max(...Array.from({ length: runs }, () => cpuMs(read)));
    const kb = Math.round(new TextEncoder().encode(text).length / 1024);
    console.log(
      `${name}: ${kb} KB → ${outcome}; CPU cold ${cold.toFixed(0)} ms, worst warm ${warm.toFixed(0)} ms`,
    );
    if (Math.max(cold, warm) > worst.ms) worst = { name, ms: Math.max(cold, warm) };
  }
  console.log(`worst: ${worst.name}, ${worst.ms.toFixed(0)} ms of CPU`);
}
