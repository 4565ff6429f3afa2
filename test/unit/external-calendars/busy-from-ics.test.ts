import { readFileSync } from "node:fs";
import ICAL from "ical.js";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  busyFromIcs,
  type BusyOptions,
  ICS_LIMITS,
  IcsError,
  readBusy,
} from "../../../src/external-calendars/rules";
import { generateYear } from "./year";

/**
 * Busy time from hand-written ICS files (test/fixtures/ics): each rule of the external
 * calendars' reading, against instants worked out by hand. The window starts on
 * 2027-03-01T00:00Z; Berlin (the default zone) is UTC+1 until 28 March 2027, UTC+2 after.
 */

const NOW = Date.parse("2027-03-01T00:00:00Z");
const OPTIONS: BusyOptions = { now: NOW, days: 180, defaultZone: "Europe/Berlin" };

const fixture = (name: string) =>
  readFileSync(join(process.cwd(), "test/fixtures/ics", name), "utf8");

/** Busy time as [start, end] ISO pairs, easy to read in a failure. */
const busy = (text: string, options: Partial<BusyOptions> = {}) =>
  busyFromIcs(text, { ...OPTIONS, ...options }).map((i) => [
    new Date(i.start).toISOString().replace(":00.000Z", "Z"),
    new Date(i.end).toISOString().replace(":00.000Z", "Z"),
  ]);

function refusal(run: () => unknown) {
  try {
    run();
  } catch (error) {
    if (error instanceof IcsError) return { code: error.code, reason: error.reason };
    throw error;
  }
  throw new Error("not refused");
}

describe("busyFromIcs: one event", () => {
  it("DTEND or DURATION; a DATE-TIME start alone lasts no time, a DATE alone one local day; clipped to now, nothing outside the window, no VTODO", () => {
    expect(busy(fixture("single.ics"))).toEqual([
      // Started before now: from now on.
      ["2027-03-01T00:00Z", "2027-03-01T02:00Z"],
      ["2027-03-05T09:00Z", "2027-03-05T10:00Z"],
      ["2027-03-06T09:00Z", "2027-03-06T10:30Z"],
      // 8 March in Berlin (UTC+1).
      ["2027-03-07T23:00Z", "2027-03-08T23:00Z"],
    ]);
  });

  it("the window's end: an event starting at it is out, one just before is in and clipped", () => {
    const end = NOW + 180 * 86_400_000;
    const at = (ms: number) => new Date(ms).toISOString().replace(/[-:]|\.000/g, "");
    const text = calendar(
      vevent("a", `DTSTART:${at(end)}\nDTEND:${at(end + 3_600_000)}`),
      vevent("b", `DTSTART:${at(end - 1_800_000)}\nDTEND:${at(end + 1_800_000)}`),
    );
    expect(busyFromIcs(text, OPTIONS)).toEqual([{ start: end - 1_800_000, end }]);
  });
});

describe("busyFromIcs: recurrence", () => {
  it("RRULE with BYDAY and COUNT, an EXDATE, an override moving one occurrence, an override cancelling one; INTERVAL with UNTIL; BYMONTHDAY", () => {
    expect(busy(fixture("recurring.ics"))).toEqual([
      // Yoga 18:00 Berlin = 17:00Z: 1 March; 3 March excluded.
      ["2027-03-01T12:00Z", "2027-03-01T13:00Z"],
      ["2027-03-01T17:00Z", "2027-03-01T18:00Z"],
      ["2027-03-04T12:00Z", "2027-03-04T13:00Z"],
      ["2027-03-07T12:00Z", "2027-03-07T13:00Z"],
      // 8 March's yoga moved to Tuesday 07:00 Berlin; nothing left on the 8th.
      ["2027-03-09T06:00Z", "2027-03-09T07:00Z"],
      // The course's last day: UNTIL is inclusive. 10 March's yoga is cancelled.
      ["2027-03-10T12:00Z", "2027-03-10T13:00Z"],
      ["2027-03-15T07:00Z", "2027-03-15T07:30Z"],
      // COUNT=6 counts the excluded and overridden occurrences too: 15 and 17 March are the last.
      ["2027-03-15T17:00Z", "2027-03-15T18:00Z"],
      ["2027-03-17T17:00Z", "2027-03-17T18:00Z"],
      // Every other month, the 15th and the last day, five times.
      ["2027-03-31T07:00Z", "2027-03-31T07:30Z"],
      ["2027-05-15T07:00Z", "2027-05-15T07:30Z"],
      ["2027-05-31T07:00Z", "2027-05-31T07:30Z"],
      ["2027-07-15T07:00Z", "2027-07-15T07:30Z"],
    ]);
  });

  it("an override moving an occurrence into the window from before it, and one moving it out", () => {
    const text = calendar(
      vevent("s", "DTSTART:20270225T090000Z\nDTEND:20270225T100000Z\nRRULE:FREQ=DAILY;COUNT=10"),
      // The 26 February occurrence (before now) moved to 2 April.
      vevent(
        "s",
        "RECURRENCE-ID:20270226T090000Z\nDTSTART:20270402T090000Z\nDTEND:20270402T100000Z",
      ),
      // The 3 March occurrence moved to last year.
      vevent(
        "s",
        "RECURRENCE-ID:20270303T090000Z\nDTSTART:20260303T090000Z\nDTEND:20260303T100000Z",
      ),
    );
    expect(busy(text)).toEqual([
      ["2027-03-01T09:00Z", "2027-03-01T10:00Z"],
      ["2027-03-02T09:00Z", "2027-03-02T10:00Z"],
      ["2027-03-04T09:00Z", "2027-03-04T10:00Z"],
      ["2027-03-05T09:00Z", "2027-03-05T10:00Z"],
      ["2027-03-06T09:00Z", "2027-03-06T10:00Z"],
      ["2027-04-02T09:00Z", "2027-04-02T10:00Z"],
    ]);
  });

  it("UNTIL in UTC: inclusive at its instant for a zoned start; a floating start's UNTIL is read in the default zone", () => {
    expect(busy(fixture("floating.ics"))).toEqual([
      // Floating 10:00 = 10:00 Berlin; an unknown TZID is read the same way.
      ["2027-03-05T09:00Z", "2027-03-05T10:00Z"],
      ["2027-03-06T09:00Z", "2027-03-06T10:00Z"],
      // Daily until 09:00Z on the 12th, which is 10:00 Berlin: the 12th is in.
      ["2027-03-10T09:00Z", "2027-03-10T09:30Z"],
      ["2027-03-11T09:00Z", "2027-03-11T09:30Z"],
      ["2027-03-12T09:00Z", "2027-03-12T09:30Z"],
      // Until a second before the 22nd's: the 22nd is out.
      ["2027-03-20T09:00Z", "2027-03-20T09:30Z"],
      ["2027-03-21T09:00Z", "2027-03-21T09:30Z"],
      // 09:00 New York (UTC-4 in April) weekly until 13:00Z on the 15th.
      ["2027-04-01T13:00Z", "2027-04-01T14:00Z"],
      ["2027-04-08T13:00Z", "2027-04-08T14:00Z"],
      ["2027-04-15T13:00Z", "2027-04-15T14:00Z"],
    ]);
  });
});

describe("busyFromIcs: all-day, transparency, status", () => {
  it("all-day events block whole days in the default zone, across its DST change; a yearly one from years ago", () => {
    expect(busy(fixture("all-day.ics"))).toEqual([
      ["2027-03-09T23:00Z", "2027-03-10T23:00Z"],
      // 29–31 March in Berlin, after the change to UTC+2.
      ["2027-03-28T22:00Z", "2027-03-31T22:00Z"],
      ["2027-04-19T22:00Z", "2027-04-20T22:00Z"],
    ]);
    // The same file for a staffer in New York: the days are New York's.
    expect(busy(fixture("all-day.ics"), { defaultZone: "America/New_York" })[0]).toEqual([
      "2027-03-10T05:00Z",
      "2027-03-11T05:00Z",
    ]);
  });

  it("TRANSP:TRANSPARENT and STATUS:CANCELLED are not busy (an event, a series, one occurrence); TENTATIVE is", () => {
    expect(busy(fixture("transparent-cancelled.ics"))).toEqual([
      ["2027-03-05T15:00Z", "2027-03-05T16:00Z"],
      ["2027-03-06T09:00Z", "2027-03-06T10:00Z"],
      ["2027-03-08T09:00Z", "2027-03-08T10:00Z"],
    ]);
  });
});

describe("busyFromIcs: zones and DST", () => {
  it("a zone defined by a VTIMEZONE (Outlook's name): 10:00 local on both sides of its DST change", () => {
    expect(busy(fixture("dst-vtimezone.ics"))).toEqual([
      ["2027-03-12T15:00Z", "2027-03-12T15:30Z"],
      ["2027-03-13T15:00Z", "2027-03-13T15:30Z"],
      // 14 March 2027: New York moves to UTC-4.
      ["2027-03-14T14:00Z", "2027-03-14T14:30Z"],
      ["2027-03-15T14:00Z", "2027-03-15T14:30Z"],
    ]);
  });

  it("a bare IANA TZID: 10:00 local on both sides; an EXDATE in UTC; a time in the DST gap; another zone", () => {
    expect(busy(fixture("dst-iana.ics"))).toEqual([
      ["2027-03-05T00:00Z", "2027-03-05T01:00Z"],
      ["2027-03-26T09:00Z", "2027-03-26T10:00Z"],
      // 27 March excluded (EXDATE 09:00Z = 10:00 Berlin). 02:30 on the 28th does not exist:
      // read with the offset before the gap (UTC+1), it is 01:30Z; it ends 04:30 CEST.
      ["2027-03-28T01:30Z", "2027-03-28T02:30Z"],
      ["2027-03-28T08:00Z", "2027-03-28T09:00Z"],
      ["2027-03-29T08:00Z", "2027-03-29T09:00Z"],
    ]);
  });

  it("the autumn change: 10:00 local on both sides, and 02:30 (twice that night) is the first 02:30", () => {
    const text = calendar(
      vevent(
        "weekly",
        "DTSTART;TZID=Europe/Berlin:20271024T100000\nDURATION:PT1H\nRRULE:FREQ=WEEKLY;COUNT=2",
      ),
      vevent("twice", "DTSTART;TZID=Europe/Berlin:20271031T023000\nDURATION:PT30M"),
    );
    expect(busy(text, { now: Date.parse("2027-10-01T00:00:00Z") })).toEqual([
      ["2027-10-24T08:00Z", "2027-10-24T09:00Z"],
      // 02:30 CEST (UTC+2), not 02:30 CET an hour later.
      ["2027-10-31T00:30Z", "2027-10-31T01:00Z"],
      ["2027-10-31T09:00Z", "2027-10-31T10:00Z"],
    ]);
  });

  it("a VTIMEZONE in one file does not change how another file's bare TZID is read", () => {
    // A file that defines "Europe/Berlin" as UTC+5 all year…
    const odd = calendar(
      "BEGIN:VTIMEZONE\nTZID:Europe/Berlin\nBEGIN:STANDARD\nDTSTART:19700101T000000\nTZOFFSETFROM:+0500\nTZOFFSETTO:+0500\nEND:STANDARD\nEND:VTIMEZONE",
      vevent(
        "x",
        "DTSTART;TZID=Europe/Berlin:20270305T100000\nDTEND;TZID=Europe/Berlin:20270305T110000",
      ),
    );
    expect(busy(odd)).toEqual([["2027-03-05T05:00Z", "2027-03-05T06:00Z"]]);
    // …leaves the real Berlin to the next one.
    expect(busy(fixture("dst-iana.ics"))[1]).toEqual(["2027-03-26T09:00Z", "2027-03-26T10:00Z"]);
  });
});

describe("busyFromIcs: bounds and invalid text", () => {
  it("merges overlapping and touching intervals", () => {
    const text = calendar(
      vevent("a", "DTSTART:20270305T090000Z\nDTEND:20270305T100000Z"),
      vevent("b", "DTSTART:20270305T093000Z\nDTEND:20270305T110000Z"),
      vevent("c", "DTSTART:20270305T110000Z\nDTEND:20270305T113000Z"),
      vevent("d", "DTSTART:20270305T120000Z\nDTEND:20270305T123000Z"),
    );
    expect(busy(text)).toEqual([
      ["2027-03-05T09:00Z", "2027-03-05T11:30Z"],
      ["2027-03-05T12:00Z", "2027-03-05T12:30Z"],
    ]);
  });

  it("refuses text that is not iCalendar, not one VCALENDAR, or has a value that does not parse", () => {
    for (const text of ["hello", "BEGIN:VCALENDAR\nVERSION:2.0\n"])
      expect(
        refusal(() => busyFromIcs(text, OPTIONS)),
        JSON.stringify(text),
      ).toEqual({
        code: "calendar_invalid",
        reason: "unreadable",
      });
    for (const text of ["", "BEGIN:VCARD\nVERSION:4.0\nFN:A\nEND:VCARD\n"])
      expect(refusal(() => busyFromIcs(text, OPTIONS))).toEqual({
        code: "calendar_invalid",
        reason: "not_a_calendar",
      });
    const badDate = calendar(vevent("x", "DTSTART:2027-13-45T99:00:00Z\nDTEND:20270305T100000Z"));
    expect(refusal(() => busyFromIcs(badDate, OPTIONS))).toEqual({
      code: "calendar_invalid",
      reason: "unreadable",
    });
  });

  it("a refusal's message never quotes the calendar's text (it is private)", () => {
    const texts = [
      "BEGIN:VCALENDAR\nSECRET therapy with Dr Example\nEND:VCALENDAR\n",
      calendar(vevent("x", "DTSTART:SECRET-2027-13-45\nDTEND:20270305T100000Z")),
      calendar(vevent("x", "DTSTART;VALUE=DATE-TIME:SECRET\nDTEND:20270305T100000Z")),
    ];
    for (const text of texts) {
      let message = "";
      try {
        busyFromIcs(text, OPTIONS);
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message, text).toMatch(/^The /);
      expect(message).not.toMatch(/SECRET|Example/);
    }
  });

  it("2 MB at most: one byte over is refused before parsing (multi-byte characters count as bytes)", () => {
    const head = calendar(vevent("x", "DTSTART:20270305T090000Z\nDTEND:20270305T100000Z"));
    const pad = (bytes: number) => `X-PAD:${"a".repeat(bytes)}\n`;
    const limit = 2 * 1024 * 1024;
    const exact = head.replace("END:VCALENDAR", `${pad(limit - head.length - 7)}END:VCALENDAR`);
    expect(new TextEncoder().encode(exact).length).toBe(limit);
    expect(busy(exact)).toHaveLength(1);
    expect(refusal(() => busyFromIcs(`${exact} `, OPTIONS))).toEqual({
      code: "calendar_invalid",
      reason: "too_large",
    });
    // Same character count, more bytes.
    const wide = exact.replace("X-PAD:a", "X-PAD:ä");
    expect(refusal(() => busyFromIcs(wide, OPTIONS)).reason).toBe("too_large");
  });

  it("5,000 busy occurrences at most: the limit passes, one more is refused", () => {
    const daily = (count: number) =>
      calendar(
        vevent(
          "many",
          `DTSTART:20270301T000000Z\nDTEND:20270301T000100Z\nRRULE:FREQ=MINUTELY;INTERVAL=30;COUNT=${count}`,
        ),
      );
    expect(busyFromIcs(daily(5000), OPTIONS)).toHaveLength(5000);
    expect(refusal(() => busyFromIcs(daily(5001), OPTIONS))).toEqual({
      code: "calendar_invalid",
      reason: "too_many_busy",
    });
  });

  it("an old open-ended series starts near the window (no years of past steps): a daily one since 2000, every 45 minutes since 2020", () => {
    const daily = calendar(
      vevent(
        "daily",
        "DTSTART;TZID=Europe/Berlin:20000103T100000\nDTEND;TZID=Europe/Berlin:20000103T110000\nRRULE:FREQ=DAILY;INTERVAL=2;BYDAY=MO,WE,FR,SA",
      ),
    );
    const hourly = calendar(
      vevent(
        "minutes",
        "DTSTART:20200101T003000Z\nDTEND:20200101T003500Z\nRRULE:FREQ=MINUTELY;INTERVAL=45",
      ),
    );
    // At most 3,000 expansion steps each (224 occurrences are in the window, each a call (1),
    // a pass of ical.js's search (4) and the occurrence's own 4): from DTSTART they would take
    // ~45,000 and ~750,000.
    const limits = { maxSteps: 3000 };
    // Every other day from Monday 3 January 2000 that is a Mon, Wed, Fri or Sat; 10:00 Berlin.
    const DAY = 86_400_000;
    const first = Date.UTC(2000, 0, 3, 9);
    const expected = [];
    for (let t = NOW; t < NOW + 7 * DAY; t += DAY) {
      const at = t + 9 * 3_600_000;
      const day = new Date(at).getUTCDay();
      if (Math.round((at - first) / DAY) % 2 === 0 && [1, 3, 5, 6].includes(day))
        expected.push(new Date(at).toISOString().replace(":00.000Z", "Z"));
    }
    expect(busy(daily, { days: 7, limits }).map(([start]) => start)).toEqual(expected);
    // Every 45 minutes since 2020-01-01T00:30Z, five minutes each.
    const hours = busy(hourly, { days: 7, limits });
    const origin = Date.UTC(2020, 0, 1, 0, 30);
    const every = 45 * 60_000;
    const firstIn = origin + Math.ceil((NOW - origin) / every) * every;
    expect(hours.length).toBe(Math.ceil((NOW + 7 * DAY - firstIn) / every));
    expect(hours[0]?.[0]).toBe(new Date(firstIn).toISOString().replace(":00.000Z", "Z"));
    for (const [start] of hours) expect((Date.parse(start ?? "") - origin) % every).toBe(0);
  });

  it("100 VTIMEZONEs and 1,000 EXDATE/RDATE values of an event at most; one more is refused", () => {
    const zone = (k: number) =>
      `BEGIN:VTIMEZONE\nTZID:Zone ${k}\nBEGIN:STANDARD\nDTSTART:19700101T000000\nTZOFFSETFROM:+0100\nTZOFFSETTO:+0100\nEND:STANDARD\nEND:VTIMEZONE`;
    const event = vevent(
      "e",
      "DTSTART;TZID=Zone 7:20270305T100000\nDTEND;TZID=Zone 7:20270305T110000",
    );
    const zones = (n: number) => calendar(...Array.from({ length: n }, (_, k) => zone(k)), event);
    expect(busy(zones(100))).toEqual([["2027-03-05T09:00Z", "2027-03-05T10:00Z"]]);
    expect(refusal(() => busyFromIcs(zones(101), OPTIONS))).toEqual({
      code: "calendar_invalid",
      reason: "too_complex",
    });
    // Every other day from 2 March (ical.js gives up after 500 excluded in a row).
    const day = (k: number) => new Date(Date.UTC(2027, 2, 2, 10) + 2 * k * 86_400_000);
    const stamp = (d: Date) => d.toISOString().replace(/[-:]|\.000/g, "");
    const excluded = (n: number) =>
      calendar(
        vevent(
          "x",
          [
            "DTSTART:20270301T100000Z",
            "DTEND:20270301T110000Z",
            "RRULE:FREQ=DAILY;COUNT=2000",
            // Half in one EXDATE line (a list), half one per line.
            `EXDATE:${Array.from({ length: n / 2 }, (_, k) => stamp(day(k))).join(",")}`,
            ...Array.from({ length: n / 2 }, (_, k) => `EXDATE:${stamp(day(n / 2 + k))}`),
          ].join("\n"),
        ),
      );
    // 1, 3, 5 … March and on: 90 of the 180 days.
    const left = busy(excluded(1000));
    expect(left).toHaveLength(90);
    expect(left[1]).toEqual(["2027-03-03T10:00Z", "2027-03-03T11:00Z"]);
    expect(refusal(() => busyFromIcs(excluded(1002), OPTIONS)).reason).toBe("too_complex");
  });

  it("a series that needs more than 100,000 steps to reach the window is refused, quickly", () => {
    // COUNT keeps it from starting near the window: every step from 2020 is taken.
    const minutely = calendar(
      vevent(
        "m",
        "DTSTART:20200101T000000Z\nDTEND:20200101T000100Z\nRRULE:FREQ=MINUTELY;COUNT=10000000",
      ),
    );
    const started = performance.now();
    expect(refusal(() => busyFromIcs(minutely, OPTIONS))).toEqual({
      code: "calendar_invalid",
      reason: "too_complex",
    });
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it("a rule that names a day some months lack (30th) skips those months, as RFC 5545 says; one that never matches (30 February) has none", () => {
    const thirtieth = calendar(
      vevent(
        "t",
        "DTSTART:20270130T090000Z\nDTEND:20270130T100000Z\nRRULE:FREQ=MONTHLY;BYMONTHDAY=30;COUNT=4",
      ),
    );
    expect(busy(thirtieth)).toEqual([
      ["2027-03-30T09:00Z", "2027-03-30T10:00Z"],
      ["2027-04-30T09:00Z", "2027-04-30T10:00Z"],
      ["2027-05-30T09:00Z", "2027-05-30T10:00Z"],
    ]);
    const never = calendar(
      vevent(
        "n",
        "DTSTART:20270130T090000Z\nDTEND:20270130T100000Z\nRRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30",
      ),
    );
    // ical.js rolls 30 February over to 2 March; that day is no occurrence of the rule.
    expect(busy(never)).toEqual([]);
  });
});

describe("busyFromIcs: a year of a busy personal calendar", () => {
  it("2,000 events (zoned, UTC, all-day, recurring with exceptions, cancelled, transparent) expand within the limits", () => {
    const text = generateYear(2000, NOW);
    const started = performance.now();
    const intervals = busyFromIcs(text, OPTIONS);
    const took = performance.now() - started;
    expect(intervals.length).toBeGreaterThan(500);
    for (let i = 1; i < intervals.length; i++)
      expect(intervals[i]?.start).toBeGreaterThan(intervals[i - 1]?.end ?? 0);
    expect(took).toBeLessThan(10_000);
  });
});

/** A VCALENDAR around the parts given. */
function calendar(...parts: string[]) {
  return [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//test//EN",
    ...parts,
    "END:VCALENDAR",
    "",
  ].join("\n");
}

function vevent(uid: string, body: string) {
  return `BEGIN:VEVENT\nUID:${uid}\nDTSTAMP:20270101T000000Z\n${body}\nEND:VEVENT`;
}

describe("busyFromIcs: rules whose expansion has no bound", () => {
  const zone = (start: string, rule: string) =>
    `BEGIN:VTIMEZONE\nTZID:Hostile\nBEGIN:STANDARD\nDTSTART:${start}\nRRULE:${rule}\nTZOFFSETFROM:+0100\nTZOFFSETTO:+0100\nEND:STANDARD\nEND:VTIMEZONE`;
  const zoned = vevent(
    "z",
    "DTSTART;TZID=Hostile:20270302T100000\nDTEND;TZID=Hostile:20270302T110000",
  );
  const ok = vevent("ok", "DTSTART:20270305T090000Z\nDTEND:20270305T100000Z");

  it.each([
    "FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30",
    "FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=29",
    "FREQ=SECONDLY;COUNT=2",
    "FREQ=MINUTELY;BYMONTHDAY=31;BYMONTH=4",
    "FREQ=HOURLY;BYYEARDAY=366",
    "FREQ=MINUTELY;BYHOUR=25",
    "FREQ=DAILY;INTERVAL=1000000000;COUNT=3",
  ])(
    "an event's RRULE:%s is skipped within its step budget; alone, the calendar is refused",
    (rule) => {
      const hostile = vevent(
        "h",
        `DTSTART:20270301T090000Z\nDTEND:20270301T100000Z\nRRULE:${rule}`,
      );
      const reading = readBusy(calendar(hostile, ok), OPTIONS);
      expect(reading.skipped).toBe(1);
      expect(reading.busy).toEqual([
        { start: Date.parse("2027-03-05T09:00:00Z"), end: Date.parse("2027-03-05T10:00:00Z") },
      ]);
      expect(reading.steps).toBeLessThanOrEqual(ICS_LIMITS.maxEventSteps + 10);
      expect(refusal(() => busyFromIcs(calendar(hostile), OPTIONS)).code).toBe("calendar_invalid");
    },
  );

  it("an EXRULE with FREQ=SECONDLY: that event is skipped", () => {
    const text = calendar(
      vevent(
        "h",
        "DTSTART:20270301T090000Z\nDTEND:20270301T100000Z\nRRULE:FREQ=DAILY;COUNT=3\nEXRULE:FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=30",
      ),
      ok,
    );
    expect(readBusy(text, OPTIONS).skipped).toBe(1);
  });

  it("a VTIMEZONE rule that is not YEARLY refuses the calendar; one that starts before 1970 is read from 1970", () => {
    expect(
      refusal(() => busyFromIcs(calendar(zone("00010101T000000", "FREQ=MINUTELY"), zoned), OPTIONS))
        .reason,
    ).toBe("too_complex");
    expect(
      refusal(() => busyFromIcs(calendar(zone("20000101T000000", "FREQ=DAILY"), zoned), OPTIONS))
        .reason,
    ).toBe("too_complex");
    expect(
      busy(calendar(zone("15000101T000000", "FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU"), zoned)),
    ).toEqual([["2027-03-02T09:00Z", "2027-03-02T10:00Z"]]);
  });

  it("keeps what real calendars send: a zone's YEARLY rules from 1601 (Outlook), DAILY with BYDAY", () => {
    const outlook = zone("16010101T030000", "FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU");
    expect(busy(calendar(outlook, zoned))).toHaveLength(1);
    expect(
      busy(
        calendar(
          vevent(
            "d",
            "DTSTART:20270301T090000Z\nDTEND:20270301T100000Z\nRRULE:FREQ=DAILY;BYDAY=MO,TU;COUNT=4",
          ),
        ),
      ),
    ).toHaveLength(4);
  });
});

describe("busyFromIcs: TZID spellings", () => {
  /** The k-th letter-case spelling of Europe/Berlin (Intl accepts them all). */
  const spelling = (k: number) => {
    let bit = 0;
    return [..."europe/berlin"]
      .map((c) => (c === "/" ? c : (k >> bit++) & 1 ? c.toUpperCase() : c))
      .join("");
  };
  const at = (k: number) =>
    vevent(
      `t${k}`,
      `DTSTART;TZID=${spelling(k)}:20270302T100000\nDTEND;TZID=${spelling(k)}:20270302T110000`,
    );

  it("any letter case of an IANA name is that zone, known to ical.js under its canonical name only", () => {
    expect(busy(calendar(at(5), at(4095)))).toEqual([["2027-03-02T09:00Z", "2027-03-02T10:00Z"]]);
    expect(ICAL.TimezoneService.has(spelling(5))).toBe(false);
    expect(ICAL.TimezoneService.has(spelling(4095))).toBe(false);
    expect(ICAL.TimezoneService.has("Europe/Berlin")).toBe(true);
  });

  it("100 distinct TZID spellings in a file at most; one more is refused", () => {
    const spellings = (n: number) => calendar(...Array.from({ length: n }, (_, k) => at(k + 100)));
    expect(busy(spellings(100))).toHaveLength(1);
    expect(refusal(() => busyFromIcs(spellings(101), OPTIONS))).toEqual({
      code: "calendar_invalid",
      reason: "too_complex",
    });
  });
});
