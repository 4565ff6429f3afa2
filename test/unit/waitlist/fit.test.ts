import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  findCartStart,
  localDateTimeToInstant,
  OffsetTable,
  type StafferCalendarInput,
} from "../../../src/calendar/rules";
import { entryWindow, firstWaitlistFit, localDays, withinTimes } from "../../../src/waitlist/rules";

const MIN = 60_000;
const TZ = "Europe/Berlin";
const at = (date: string, hhmm: string) => localDateTimeToInstant(date, hhmm, TZ);
const location = { timezone: TZ, slotStepMin: 15, minNoticeMin: 0 };
const weekdays = Array.from({ length: 5 }, (_, i) => ({
  weekday: i + 1,
  start: "09:00",
  end: "18:00",
}));

describe("withinTimes", () => {
  const zone = new OffsetTable(TZ, at("2030-03-29", "00:00"), at("2030-04-02", "00:00"));
  it("measures wall-clock minutes, the same on the day clocks go forward", () => {
    // 2030-03-31: 02:00 becomes 03:00 in Berlin.
    const start = at("2030-03-31", "09:00");
    expect(withinTimes(zone, start, start + 60 * MIN, [{ start: "09:00", end: "10:00" }])).toBe(
      true,
    );
    expect(withinTimes(zone, start, start + 61 * MIN, [{ start: "09:00", end: "10:00" }])).toBe(
      false,
    );
    expect(
      withinTimes(zone, start - MIN, start + 30 * MIN, [{ start: "09:00", end: "10:00" }]),
    ).toBe(false);
  });
  it("takes any one window, a visit ending at midnight in a window to 24:00, and any time with none", () => {
    const late = at("2030-03-29", "23:00");
    expect(withinTimes(zone, late, late + 60 * MIN, [{ start: "22:00", end: "24:00" }])).toBe(true);
    expect(withinTimes(zone, late, late + 61 * MIN, [{ start: "22:00", end: "24:00" }])).toBe(
      false,
    );
    const noon = at("2030-03-29", "12:00");
    const two = [
      { start: "08:00", end: "09:00" },
      { start: "11:30", end: "13:00" },
    ];
    expect(withinTimes(zone, noon, noon + 30 * MIN, two)).toBe(true);
    expect(withinTimes(zone, noon, noon + 30 * MIN, null)).toBe(true);
    expect(withinTimes(zone, noon, noon + 30 * MIN, [])).toBe(true);
  });
});

describe("entryWindow and localDays", () => {
  it("a window runs from local midnight of from to local midnight after to, across DST", () => {
    const w = entryWindow("2030-03-30", "2030-03-31", TZ);
    expect(w.start).toBe(Date.UTC(2030, 2, 29, 23));
    expect(w.end).toBe(Date.UTC(2030, 2, 31, 22));
  });
  it("an interval over local midnight touches both days; the limit caps them", () => {
    const start = at("2030-03-04", "23:00");
    expect(localDays([{ start, end: start + 2 * 60 * MIN }], TZ, 10)).toEqual([
      "2030-03-04",
      "2030-03-05",
    ]);
    expect(localDays([{ start, end: start + 60 * MIN }], TZ, 10)).toEqual(["2030-03-04"]);
    const long = { start, end: start + 100 * 86_400_000 };
    expect(localDays([long], TZ, 63)).toHaveLength(63);
  });
});

describe("firstWaitlistFit", () => {
  const dates = ["2030-03-04", "2030-03-05", "2030-03-06"];
  const arb = fc.record({
    duration: fc.integer({ min: 15, max: 120 }),
    buffer: fc.constantFrom(0, 15),
    busy: fc.array(
      fc.record({
        staffer: fc.integer({ min: 0, max: 1 }),
        day: fc.integer({ min: 0, max: 2 }),
        from: fc.integer({ min: 9 * 4, max: 17 * 4 }),
        len: fc.integer({ min: 1, max: 16 }),
      }),
      { maxLength: 12 },
    ),
    times: fc.option(
      fc.array(
        fc
          .tuple(fc.integer({ min: 8 * 4, max: 18 * 4 }), fc.integer({ min: 1, max: 16 }))
          .map(([s, len]) => ({
            start: hhmm(s * 15),
            end: hhmm(Math.min(s * 15 + len * 15, 1440)),
          })),
        { minLength: 1, maxLength: 3 },
      ),
      { nil: null },
    ),
    passed: fc.array(
      fc.record({
        day: fc.integer({ min: 0, max: 2 }),
        from: fc.integer({ min: 9 * 4, max: 17 * 4 }),
      }),
      { maxLength: 3 },
    ),
  });

  it("is the earliest grid start that fits, lies in a time window and misses the passed offers (oracle: every start tried)", () => {
    fc.assert(
      fc.property(arb, (c) => {
        const staffers: StafferCalendarInput[] = ["a", "b"].map((id, i) => ({
          id,
          weekly: weekdays,
          overrides: [],
          busy: c.busy
            .filter((b) => b.staffer === i)
            .map((b) => {
              const start = at(dates[b.day] ?? "", hhmm(b.from * 15));
              return { start, end: start + b.len * 15 * MIN, kind: "booking" as const };
            }),
        }));
        const services = [{ durationMin: c.duration, bufferMin: c.buffer, stafferIds: ["a", "b"] }];
        const passed = c.passed.map((p) => {
          const start = at(dates[p.day] ?? "", hhmm(p.from * 15));
          return { start, end: start + 30 * MIN };
        });
        const now = at("2030-03-01", "00:00");
        const fit = firstWaitlistFit({
          location,
          services,
          staffers,
          dates,
          times: c.times,
          passed,
          now,
        });
        const zone = new OffsetTable(TZ, now, at("2030-03-08", "00:00"));
        let oracle: number | null = null;
        for (const date of dates) {
          for (let m = 9 * 60; m < 18 * 60 && oracle === null; m += 15) {
            const start = at(date, hhmm(m));
            const placed = findCartStart({ location, services, staffers, start, now });
            if (!placed) continue;
            const end = start + c.duration * MIN;
            if (!withinTimes(zone, start, end, c.times)) continue;
            if (passed.some((p) => p.start < end && start < p.end)) continue;
            oracle = start;
          }
          if (oracle !== null) break;
        }
        expect(fit?.start ?? null).toBe(oracle);
      }),
      { numRuns: 200 },
    );
  });
});

function hhmm(m: number) {
  return `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
}
