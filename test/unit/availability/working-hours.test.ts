import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { localDateTimeToInstant } from "../../../src/calendar/rules";
import { instantConverter } from "../../../src/calendar/rules/working-hours";

const DAY = 86_400_000;
const ZONES = [
  "Europe/Berlin",
  "America/New_York",
  "Australia/Lord_Howe",
  "Asia/Kathmandu",
  "America/Santiago",
  "Pacific/Apia",
  "UTC",
];

describe("instantConverter", () => {
  it("turns every wall-clock time into the instant Temporal gives, in gaps and repeated hours too", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.array(
          fc.record({
            // Two years of days, minutes in 5s: every change of offset is met many times.
            day: fc.integer({ min: 0, max: 730 }),
            minute: fc.integer({ min: 0, max: 288 }).map((m) => m * 5),
          }),
          { minLength: 1, maxLength: 40 },
        ),
        (zone, times) => {
          // One converter for all: its offset table is built once and reused.
          const convert = instantConverter(zone);
          for (const { day, minute } of times) {
            const date = new Date(Date.UTC(2029, 0, 1) + day * DAY).toISOString().slice(0, 10);
            const hhmm = `${String(Math.floor(minute / 60)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}`;
            expect(convert(date, hhmm)).toBe(localDateTimeToInstant(date, hhmm, zone));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("on the spring-forward and fall-back dates of Berlin", () => {
    const convert = instantConverter("Europe/Berlin");
    for (const [date, hhmm] of [
      ["2030-03-31", "02:30"],
      ["2030-03-31", "01:59"],
      ["2030-03-31", "03:00"],
      ["2030-10-27", "02:30"],
      ["2030-10-27", "03:00"],
      ["2030-10-26", "24:00"],
    ] as const)
      expect(convert(date, hhmm)).toBe(localDateTimeToInstant(date, hhmm, "Europe/Berlin"));
  });
});
