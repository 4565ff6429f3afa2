import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { addDays, dayRange, localDate, localToUtc, toUtc } from "../../widget/time";

// The widget reads and writes times on the browser's clock; Node's TZ plays the browser's zone.
const original = process.env.TZ;
const inZone = (zone: string) => {
  process.env.TZ = zone;
};
beforeEach(() => inZone("UTC"));
afterEach(() => {
  process.env.TZ = original;
});

const pad = (n: number) => String(n).padStart(2, "0");
const wallClock = (d: Date) => `${pad(d.getHours())}:${pad(d.getMinutes())}`;

/** Quarter-hour instants in 2020–2035, the grid the time-slot search lists. */
const quarterHours = fc
  .integer({ min: Date.UTC(2020, 0, 1) / 900_000, max: Date.UTC(2035, 0, 1) / 900_000 })
  .map((q) => new Date(q * 900_000));

describe("widget clock", () => {
  it.each(["UTC", "Asia/Tokyo", "Asia/Kolkata", "Australia/Eucla"])(
    "a listed local date and HH:MM maps back to its instant (%s, no DST)",
    (zone) => {
      inZone(zone);
      fc.assert(
        fc.property(quarterHours, (d) => {
          expect(localToUtc(localDate(d), wallClock(d))).toBe(toUtc(d));
        }),
      );
    },
  );

  it("maps wall-clock times across DST changes (America/New_York)", () => {
    inZone("America/New_York");
    // Summer time: UTC-4; winter: UTC-5; the day after the spring change keeps 09:00 at 13:00Z.
    expect(localToUtc("2030-07-01", "09:00")).toBe("2030-07-01T13:00:00Z");
    expect(localToUtc("2030-01-15", "09:00")).toBe("2030-01-15T14:00:00Z");
    expect(localToUtc("2030-03-10", "09:00")).toBe("2030-03-10T13:00:00Z");
    // A day of 23 hours: the search range spans exactly that day.
    const spring = dayRange("2030-03-10");
    expect(spring).toEqual({ start: "2030-03-10T05:00:00Z", end: "2030-03-11T03:59:59Z" });
    const autumn = dayRange("2030-11-03");
    expect(autumn).toEqual({ start: "2030-11-03T04:00:00Z", end: "2030-11-04T04:59:59Z" });
  });

  it("a day's range covers it exactly: from its midnight to one second before the next", () => {
    inZone("Europe/Berlin");
    fc.assert(
      fc.property(quarterHours, (d) => {
        const day = localDate(d);
        const { start, end } = dayRange(day);
        expect(Date.parse(start)).toBeLessThanOrEqual(d.getTime());
        expect(Date.parse(end)).toBeGreaterThanOrEqual(d.getTime());
        expect(Date.parse(dayRange(addDays(day, 1)).start) - Date.parse(end)).toBe(1000);
      }),
    );
  });

  it("adds days across month and year ends", () => {
    expect(addDays("2030-12-31", 1)).toBe("2031-01-01");
    expect(addDays("2028-02-28", 1)).toBe("2028-02-29");
    expect(addDays("2030-03-01", -1)).toBe("2030-02-28");
  });
});
