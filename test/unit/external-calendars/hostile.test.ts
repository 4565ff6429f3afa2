import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import {
  busyFromIcs,
  type BusyOptions,
  ICS_LIMITS,
  IcsError,
  readBusy,
} from "../../../src/external-calendars/rules";

/**
 * Calendars written to burn CPU, and what a step budget makes of them. Steps are counted, not
 * timed: a spy counts ical.js's iterator calls and the passes of its search loop on their own,
 * beside the budget's count.
 */

const NOW = Date.parse("2027-03-01T00:00:00Z");
const OPTIONS: BusyOptions = { now: NOW, days: 180, defaultZone: "Europe/Berlin" };

const calendar = (...parts: string[]) =>
  ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN", ...parts, "END:VCALENDAR", ""].join(
    "\r\n",
  );
const vevent = (uid: string, body: string) =>
  `BEGIN:VEVENT\r\nUID:${uid}\r\nDTSTAMP:20270101T000000Z\r\n${body.replace(/\n/g, "\r\n")}\r\nEND:VEVENT`;

function refusal(run: () => unknown) {
  try {
    run();
  } catch (error) {
    if (error instanceof IcsError) return { code: error.code, reason: error.reason };
    throw error;
  }
  throw new Error("not refused");
}

/**
 * Counts ical.js's iterator work while `run` runs: `next()` calls and search passes (a plain
 * counter: a spy would keep every call's arguments, millions of them for a full expansion).
 */
function counted<T>(run: () => T): { result: T | Error; calls: number; passes: number } {
  // The budget's own wrappers go on first (once per isolate), under these counters.
  readBusy(calendar(), OPTIONS);
  const proto = ICAL.RecurIterator.prototype as unknown as Record<
    string,
    (this: unknown, ...args: unknown[]) => unknown
  >;
  const counts = { calls: 0, passes: 0 };
  const next = proto.next as (this: unknown, ...args: unknown[]) => unknown;
  const check = proto.check_contracting_rules as (this: unknown, ...args: unknown[]) => unknown;
  proto.next = function (this: unknown, ...args: unknown[]) {
    counts.calls++;
    return next.apply(this, args);
  };
  proto.check_contracting_rules = function (this: unknown, ...args: unknown[]) {
    counts.passes++;
    return check.apply(this, args);
  };
  let result: T | Error;
  try {
    result = run();
  } catch (error) {
    result = error as Error;
  } finally {
    proto.next = next;
    proto.check_contracting_rules = check;
  }
  return { result, ...counts };
}

describe("busyFromIcs: expansion steps are bounded whatever the rule", () => {
  // The audit's 205 bytes: every minute since 2000.
  const minutely = (rule: string, end = "DTEND:20000101T000100Z\n") =>
    calendar(vevent("m", `DTSTART:20000101T000000Z\n${end}RRULE:${rule}`));

  it("every minute since 2000 with an end: starts near the window (a normalised start), refused after fewer than 6,000 iterator calls", () => {
    const run = counted(() => busyFromIcs(minutely("FREQ=MINUTELY"), OPTIONS));
    expect(run.result).toBeInstanceOf(IcsError);
    // Its share of steps (9 an occurrence) runs out near 5,500 occurrences, before the 5,000
    // busy minutes would: the event is left out, and alone it leaves nothing to read.
    expect((run.result as IcsError).reason).toBe("too_complex");
    // From DTSTART it would be 14 million minutes (the code before this fix made 14,206,344
    // calls); from near the window 5,000 and the margin's 15 hours (900 minutes).
    expect(run.calls).toBeLessThan(6_000);
    expect(run.passes).toBeLessThan(6_000);
  });

  it("every minute since 2000 without an end lasts no time: not expanded at all", () => {
    const run = counted(() => readBusy(minutely("FREQ=MINUTELY", ""), OPTIONS));
    expect(run.result).toEqual({ busy: [], skipped: 0, steps: 0 });
    expect(run.calls).toBe(0);
  });

  it("every minute since 2000 until a day in 2000: a handful of calls, accepted with no busy time", () => {
    for (const rule of [
      "FREQ=MINUTELY;UNTIL=20000301T000000Z",
      "FREQ=MINUTELY;BYMONTH=2;BYMONTHDAY=30;UNTIL=20000301T000000Z",
    ]) {
      const run = counted(() => readBusy(minutely(rule), OPTIONS));
      expect(run.result).toMatchObject({ busy: [], skipped: 0 });
      expect(run.calls).toBeLessThan(10);
    }
  });

  it.each([
    "FREQ=MINUTELY;BYMONTH=2;BYMONTHDAY=30",
    "FREQ=MINUTELY;BYMONTH=2;BYMONTHDAY=30;COUNT=5",
    "FREQ=HOURLY;BYMONTH=4;BYMONTHDAY=31",
    "FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30",
  ])("%s (BY parts that never match): the event stops at its share of steps", (rule) => {
    const run = counted(() => readBusy(minutely(rule), OPTIONS));
    // A pass weighs 4 steps.
    const passesAllowed = ICS_LIMITS.maxEventSteps / 4;
    // Alone in the calendar: nothing readable, 422.
    expect(run.result).toBeInstanceOf(IcsError);
    expect(run.passes).toBeLessThanOrEqual(passesAllowed);
    expect(run.passes).toBeGreaterThan(0);
  });

  it("eleven such events: the calendar's budget stops the whole read, every step counted", () => {
    const hostile = (k: number) =>
      vevent(
        `h${k}`,
        "DTSTART:20000101T000000Z\nDTEND:20000101T000100Z\nRRULE:FREQ=MINUTELY;BYMONTH=2;BYMONTHDAY=30",
      );
    const text = calendar(...Array.from({ length: 11 }, (_, k) => hostile(k)));
    const run = counted(() => busyFromIcs(text, OPTIONS));
    expect(run.result).toBeInstanceOf(IcsError);
    expect((run.result as Error).message).toContain(`${ICS_LIMITS.maxSteps} expansion steps`);
    expect(run.passes).toBeLessThanOrEqual(ICS_LIMITS.maxSteps / 4);
    // Four of them (the audit's 5–6 s a sync) fit within the budget: skipped, the rest read.
    const four = calendar(
      ...Array.from({ length: 4 }, (_, k) => hostile(k)),
      vevent("ok", "DTSTART:20270305T090000Z\nDTEND:20270305T100000Z"),
    );
    const reading = readBusy(four, OPTIONS);
    expect(reading.skipped).toBe(4);
    expect(reading.busy).toHaveLength(1);
    expect(reading.steps).toBeLessThanOrEqual(4 * ICS_LIMITS.maxEventSteps);
  });

  it("an INTERVAL of a billion days is charged before ical.js walks it", () => {
    const run = counted(() =>
      readBusy(
        calendar(
          vevent(
            "i",
            "DTSTART:20270301T090000Z\nDTEND:20270301T100000Z\nRRULE:FREQ=DAILY;INTERVAL=1000000000;COUNT=3",
          ),
          vevent("ok", "DTSTART:20270305T090000Z\nDTEND:20270305T100000Z"),
        ),
        OPTIONS,
      ),
    );
    expect(run.result).toMatchObject({ skipped: 1 });
    expect(run.calls).toBeLessThan(5);
  });

  it("HOURLY and every-other-WEEK series since 2000 fast-forward to the same occurrences as a full expansion", () => {
    const hourly = calendar(
      vevent(
        "h",
        "DTSTART;TZID=Europe/Berlin:20000101T003000\nDTEND;TZID=Europe/Berlin:20000101T004500\nRRULE:FREQ=HOURLY;INTERVAL=7",
      ),
    );
    const weekly = calendar(
      vevent(
        "w",
        "DTSTART;TZID=Europe/Berlin:20000104T100000\nDTEND;TZID=Europe/Berlin:20000104T110000\nRRULE:FREQ=WEEKLY;INTERVAL=3;BYDAY=TU,TH",
      ),
    );
    const fast = readBusy(hourly, { ...OPTIONS, days: 30 });
    const full = readBusy(hourly.replace("INTERVAL=7", "INTERVAL=7;COUNT=1000000"), {
      ...OPTIONS,
      days: 30,
      limits: { maxSteps: 10_000_000, maxEventSteps: 10_000_000 },
    });
    expect(fast.busy).toEqual(full.busy);
    expect(fast.steps).toBeLessThan(full.steps / 50);
    const fastWeekly = readBusy(weekly, OPTIONS);
    const fullWeekly = readBusy(weekly.replace("INTERVAL=3;", "INTERVAL=3;COUNT=100000;"), {
      ...OPTIONS,
      limits: { maxSteps: 10_000_000, maxEventSteps: 10_000_000 },
    });
    expect(fastWeekly.busy).toEqual(fullWeekly.busy);
    expect(fastWeekly.busy.length).toBeGreaterThan(10);
  });
});

describe("busyFromIcs: nesting is counted before ical.js parses", () => {
  const nested = (depth: number) =>
    calendar(
      vevent(
        "n",
        `DTSTART:20270305T090000Z\nDTEND:20270305T100000Z\n${"BEGIN:X-N\n".repeat(depth)}${"END:X-N\n".repeat(depth)}`.trimEnd(),
      ),
    );

  it("60,000 nested components: 422 too_complex, no stack overflow", () => {
    expect(refusal(() => busyFromIcs(nested(60_000), OPTIONS))).toEqual({
      code: "calendar_invalid",
      reason: "too_complex",
    });
  });

  it("nesting up to the limit is read; one more is refused", () => {
    // VCALENDAR, VEVENT and the nested ones.
    const inside = ICS_LIMITS.maxDepth - 2;
    expect(busyFromIcs(nested(inside), OPTIONS)).toHaveLength(1);
    expect(refusal(() => busyFromIcs(nested(inside + 1), OPTIONS)).reason).toBe("too_complex");
  });

  it("components up to the limit are read; one more is refused", () => {
    const events = (n: number) =>
      calendar(
        ...Array.from({ length: n }, (_, k) =>
          vevent(`e${k}`, "DTSTART:20270305T090000Z\nDTEND:20270305T100000Z"),
        ),
      );
    const limits = { maxComponents: 50 };
    // 49 events and the VCALENDAR.
    expect(busyFromIcs(events(49), { ...OPTIONS, limits })).toHaveLength(1);
    expect(refusal(() => busyFromIcs(events(50), { ...OPTIONS, limits })).reason).toBe(
      "too_complex",
    );
  });
});

describe("busyFromIcs: one malformed event is skipped and counted", () => {
  const good = vevent("ok", "DTSTART:20270305T090000Z\nDTEND:20270305T100000Z");
  const okBusy = [
    { start: Date.parse("2027-03-05T09:00:00Z"), end: Date.parse("2027-03-05T10:00:00Z") },
  ];

  it("a line ical.js cannot read (no colon) in a transparent event: the rest of the calendar is read", () => {
    const broken = vevent(
      "bad",
      "DTSTART:20270306T090000Z\nDTEND:20270306T100000Z\nTRANSP:TRANSPARENT\nX-MS-OLK-THIS LINE HAS NO VALUE",
    );
    expect(readBusy(calendar(broken, good), OPTIONS)).toMatchObject({ busy: okBusy, skipped: 1 });
  });

  it("a value that does not parse (a DTSTART that is no date): skipped, the rest read", () => {
    const broken = vevent("bad", "DTSTART:2027-13-45T99:00:00Z\nDTEND:20270306T100000Z");
    expect(readBusy(calendar(broken, good), OPTIONS)).toMatchObject({ busy: okBusy, skipped: 1 });
  });

  it("an override whose RECURRENCE-ID does not parse is skipped; its series keeps that occurrence", () => {
    const series = vevent(
      "s",
      "DTSTART:20270301T090000Z\nDTEND:20270301T100000Z\nRRULE:FREQ=DAILY;COUNT=2",
    );
    const override = vevent(
      "s",
      "RECURRENCE-ID:NOT-A-DATE\nDTSTART:20270310T090000Z\nDTEND:20270310T100000Z",
    );
    const reading = readBusy(calendar(series, override), OPTIONS);
    expect(reading.skipped).toBe(1);
    expect(reading.busy).toHaveLength(2);
  });

  it("a calendar where no event can be read is still 422; an empty one is not", () => {
    const broken = vevent("bad", "DTSTART:2027-13-45T99:00:00Z\nDTEND:20270306T100000Z");
    expect(refusal(() => readBusy(calendar(broken, broken), OPTIONS))).toEqual({
      code: "calendar_invalid",
      reason: "unreadable",
    });
    const noColon = vevent("bad", "DTSTART:20270306T090000Z\nNO COLON HERE");
    expect(refusal(() => readBusy(calendar(noColon), OPTIONS)).reason).toBe("unreadable");
    expect(readBusy(calendar(), OPTIONS)).toEqual({ busy: [], skipped: 0, steps: 0 });
  });
});
