import fc from "fast-check";
import { Temporal } from "temporal-polyfill";
import { describe, expect, it } from "vitest";
import {
  expandSeries,
  formatRule,
  parseRule,
  type SeriesRule,
  seriesDateSpan,
} from "../../../src/bookings/rules";

const rule = (text: string): SeriesRule => {
  const parsed = parseRule(text);
  if (typeof parsed === "string") throw new Error(parsed);
  return parsed;
};
const at = (iso: string) => Date.parse(iso);
const wall = (ms: number, zone: string) =>
  Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO(zone).toPlainDateTime().toString();

describe("series rule", () => {
  it.each([
    ["FREQ=WEEKLY;COUNT=4", "FREQ=WEEKLY;COUNT=4"],
    [
      "rrule:freq=weekly;byday=tu,th;interval=2;count=6",
      "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH;COUNT=6",
    ],
    ["FREQ=MONTHLY;UNTIL=20271231", "FREQ=MONTHLY;UNTIL=20271231"],
    ["FREQ=DAILY;UNTIL=20270110T090000Z", "FREQ=DAILY;UNTIL=20270110T090000Z"],
  ])("parses %s", (text, canonical) => {
    expect(formatRule(rule(text))).toBe(canonical);
  });

  it.each([
    "",
    "FREQ=YEARLY;COUNT=2",
    "FREQ=HOURLY;COUNT=2",
    "FREQ=WEEKLY",
    "FREQ=WEEKLY;COUNT=1",
    "FREQ=WEEKLY;COUNT=53",
    "FREQ=WEEKLY;COUNT=x",
    "FREQ=WEEKLY;INTERVAL=0;COUNT=3",
    "FREQ=WEEKLY;INTERVAL=53;COUNT=3",
    "FREQ=WEEKLY;COUNT=3;UNTIL=20271231",
    "FREQ=DAILY;BYDAY=MO;COUNT=3",
    "FREQ=WEEKLY;BYDAY=1TU;COUNT=3",
    "FREQ=WEEKLY;BYDAY=XX;COUNT=3",
    "FREQ=WEEKLY;BYDAY=TU,TU;COUNT=3",
    "FREQ=WEEKLY;BYMONTH=1;COUNT=3",
    "FREQ=WEEKLY;WKST=SU;COUNT=3",
    "FREQ=WEEKLY;COUNT=3;COUNT=4",
    "FREQ=WEEKLY;UNTIL=20270231",
    "FREQ=WEEKLY;UNTIL=20270110T0900",
    "FREQ",
    "garbage",
  ])("refuses %j", (text) => {
    expect(typeof parseRule(text)).toBe("string");
  });
});

describe("series expansion", () => {
  it("every two weeks on two weekdays", () => {
    const starts = expandSeries(
      rule("FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH;COUNT=4"),
      at("2027-01-05T09:00:00Z"),
      "Europe/Berlin",
    );
    expect(starts).toEqual(
      ["2027-01-05", "2027-01-07", "2027-01-19", "2027-01-21"].map((d) => at(`${d}T09:00:00Z`)),
    );
  });

  it("keeps 10:00 local across both DST changes in Berlin", () => {
    const starts = expandSeries(
      rule("FREQ=WEEKLY;COUNT=3"),
      at("2027-03-21T09:00:00Z"),
      "Europe/Berlin",
    );
    // 28 March 2027 is the spring change: 10:00 is 08:00Z from then on.
    expect(starts).toEqual([
      at("2027-03-21T09:00:00Z"),
      at("2027-03-28T08:00:00Z"),
      at("2027-04-04T08:00:00Z"),
    ]);
    const autumn = expandSeries(
      rule("FREQ=DAILY;COUNT=3"),
      at("2027-10-30T08:00:00Z"),
      "Europe/Berlin",
    );
    expect(autumn).toEqual([
      at("2027-10-30T08:00:00Z"),
      at("2027-10-31T09:00:00Z"),
      at("2027-11-01T09:00:00Z"),
    ]);
  });

  it("refuses a first start the rule does not make, UNTIL too late, and too many occurrences", () => {
    const tuesday = at("2027-01-05T09:00:00Z");
    expect(typeof expandSeries(rule("FREQ=WEEKLY;BYDAY=WE;COUNT=3"), tuesday, "UTC")).toBe(
      "string",
    );
    expect(typeof expandSeries(rule("FREQ=MONTHLY;UNTIL=20280107"), tuesday, "UTC")).toBe("string");
    expect(typeof expandSeries(rule("FREQ=DAILY;UNTIL=20270301"), tuesday, "UTC")).toBe("string");
    expect(typeof expandSeries(rule("FREQ=WEEKLY;UNTIL=20270104"), tuesday, "UTC")).toBe("string");
    expect(expandSeries(rule("FREQ=MONTHLY;UNTIL=20280105"), tuesday, "UTC")).toHaveLength(13);
    // 52 weekly occurrences fit in 366 days; 53 do not.
    expect(expandSeries(rule("FREQ=WEEKLY;UNTIL=20271228"), tuesday, "UTC")).toHaveLength(52);
    expect(typeof expandSeries(rule("FREQ=DAILY;UNTIL=20270226"), tuesday, "UTC")).toBe("string");
    expect(expandSeries(rule("FREQ=DAILY;UNTIL=20270225"), tuesday, "UTC")).toHaveLength(52);
    // COUNT too: every occurrence within 366 days of the first.
    expect(expandSeries(rule("FREQ=MONTHLY;COUNT=13"), tuesday, "UTC")).toHaveLength(13);
    expect(typeof expandSeries(rule("FREQ=MONTHLY;COUNT=14"), tuesday, "UTC")).toBe("string");
  });

  const zones = [
    "Europe/Berlin",
    "America/New_York",
    "Australia/Sydney",
    "America/Sao_Paulo",
    "Asia/Kolkata",
    "UTC",
  ];

  it("property: every occurrence starts at the first start's local wall-clock time, in order", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        fc.integer({ min: 0, max: 3 * 365 }),
        fc.integer({ min: 7, max: 20 }),
        fc.constantFrom(0, 15, 30, 45),
        fc.constantFrom("DAILY", "WEEKLY", "MONTHLY"),
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 2, max: 52 }),
        (zone, day, hour, minute, freq, interval, count) => {
          const date = Temporal.PlainDate.from("2026-01-01").add({ days: day });
          const first = date
            .toPlainDateTime({ hour, minute })
            .toZonedDateTime(zone)
            .toInstant().epochMilliseconds;
          const starts = expandSeries(
            rule(`FREQ=${freq};INTERVAL=${interval};COUNT=${count}`),
            first,
            zone,
          );
          if (typeof starts === "string") return;
          expect(starts).toHaveLength(count);
          expect(starts[0]).toBe(first);
          const time = wall(first, zone).slice(11);
          for (const s of starts) expect(wall(s, zone).slice(11)).toBe(time);
          // The dates read before the zone is known cover every occurrence.
          const span = seriesDateSpan(
            rule(`FREQ=${freq};INTERVAL=${interval};COUNT=${count}`),
            first,
          );
          for (const s of starts) {
            const date = new Date(s).toISOString().slice(0, 10);
            expect(date >= span.from && date <= span.to).toBe(true);
          }
          for (let i = 1; i < starts.length; i++)
            expect(starts[i]).toBeGreaterThan(starts[i - 1] ?? 0);
        },
      ),
      { numRuns: 300 },
    );
  });
});
