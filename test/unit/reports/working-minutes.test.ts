import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  minutesOf,
  workingMinutes,
  workingPerDay,
  type WeeklyInterval,
} from "../../../src/reports/rules/working-minutes";
import { dateOfDay, dayOfDate, weekdayOf } from "../../../src/reports/rules/days";

const hhmm = (minute: number) =>
  `${String(Math.floor(minute / 60)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}`;

/** An interval of a day as the schedule API stores it: start before end, up to 24:00. */
const interval = fc
  .tuple(fc.integer({ min: 0, max: 1440 }), fc.integer({ min: 0, max: 1440 }))
  .filter(([a, b]) => a !== b)
  .map(([a, b]) => ({
    start: hhmm(Math.min(a, b)),
    end: hhmm(Math.max(a, b)),
    length: Math.abs(a - b),
  }));

const weekly = fc.array(
  fc.tuple(fc.integer({ min: 1, max: 7 }), interval).map(([weekday, i]) => ({ weekday, ...i })),
  { maxLength: 12 },
);

const strip = <T extends { length: number }>({ length: _l, ...rest }: T) => rest;

describe("working minutes", () => {
  it("an interval counts its end minus its start; a day is the sum of its intervals", () => {
    fc.assert(
      fc.property(fc.array(interval, { maxLength: 10 }), (intervals) => {
        expect(minutesOf(intervals.map(strip))).toBe(intervals.reduce((s, i) => s + i.length, 0));
      }),
    );
    expect(minutesOf([{ start: "09:00", end: "18:00" }])).toBe(540);
    expect(minutesOf([{ start: "22:00", end: "24:00" }])).toBe(120);
  });

  it("a weekday counts only its own weekly intervals", () => {
    fc.assert(
      fc.property(weekly, fc.integer({ min: 1, max: 7 }), (week, weekday) => {
        const own = week.filter((w) => w.weekday === weekday).reduce((s, w) => s + w.length, 0);
        expect(workingMinutes(week.map(strip), undefined, weekday)).toBe(own);
      }),
    );
  });

  it("a date override replaces the week's intervals that day, an empty one is a day off", () => {
    fc.assert(
      fc.property(
        weekly,
        fc.array(interval, { maxLength: 4 }),
        fc.integer({ min: 1, max: 7 }),
        (week, override, weekday) => {
          expect(workingMinutes(week.map(strip), override.map(strip), weekday)).toBe(
            override.reduce((s, i) => s + i.length, 0),
          );
        },
      ),
    );
    expect(workingMinutes([{ weekday: 1, start: "09:00", end: "18:00" }], [], 1)).toBe(0);
  });

  it("over a range, each day is its weekday's or its override's minutes, whatever the clocks do", () => {
    fc.assert(
      fc.property(
        weekly,
        fc.integer({ min: dayOfDate("2020-01-01") ?? 0, max: dayOfDate("2035-12-31") ?? 0 }),
        fc.integer({ min: 0, max: 40 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 40 }), fc.array(interval, { maxLength: 3 })), {
          maxLength: 5,
        }),
        (week, from, span, picks) => {
          const to = from + span;
          const overrides = new Map(picks.map(([i, o]) => [dateOfDay(from + i), o.map(strip)]));
          const days = workingPerDay(week.map(strip) as WeeklyInterval[], overrides, from, to);
          expect(days).toHaveLength(span + 1);
          days.forEach((minutes, i) => {
            const date = dateOfDay(from + i);
            const override = overrides.get(date);
            const expected = override
              ? minutesOf(override)
              : week
                  .filter((w) => w.weekday === weekdayOf(from + i))
                  .reduce((s, w) => s + w.length, 0);
            expect(minutes, date).toBe(expected);
          });
        },
      ),
    );
  });

  it("the DST week of Berlin still counts wall-clock hours: 09:00–18:00 is 540 minutes on 2030-03-31", () => {
    const sunday = dayOfDate("2030-03-31") ?? 0;
    expect(weekdayOf(sunday)).toBe(7);
    expect(
      workingPerDay([{ weekday: 7, start: "01:00", end: "05:00" }], new Map(), sunday, sunday),
    ).toEqual([240]);
  });
});
