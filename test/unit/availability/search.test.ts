import { describe, expect, it } from "vitest";
import {
  checkStart,
  localDateTimeToInstant,
  type StafferCalendarInput,
  searchSlots,
} from "../../../src/calendar/rules";

const berlin = { timezone: "Europe/Berlin", slotStepMin: 15, minNoticeMin: 0 };
const weekdays = (start: string, end: string) =>
  [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, start, end }));
const staffer = (id: string, over: Partial<StafferCalendarInput> = {}): StafferCalendarInput => ({
  id,
  weekly: weekdays("09:00", "12:00"),
  overrides: [],
  busy: [],
  ...over,
});
const T = (date: string, hhmm: string, tz = "Europe/Berlin") =>
  localDateTimeToInstant(date, hhmm, tz);
const base = {
  location: berlin,
  durationMin: 60,
  bufferMin: 0,
  fromDate: "2030-03-04",
  toDate: "2030-03-04",
  now: 0,
  listStaffers: true as const,
};

describe("searchSlots worked examples", () => {
  it("a 09–12 day with a 60-minute service has starts 09:00…11:00 every 15 minutes", () => {
    const [day] = searchSlots({ ...base, staffers: [staffer("a")] });
    expect(day?.slots.map((s) => s.start)).toEqual(
      ["09:00", "09:15", "09:30", "09:45", "10:00", "10:15", "10:30", "10:45", "11:00"].map((t) =>
        T("2030-03-04", t),
      ),
    );
    expect(day?.intervals).toEqual([
      { start: T("2030-03-04", "09:00"), end: T("2030-03-04", "12:00") },
    ]);
  });

  it("the buffer must fit too, and is not part of the slot", () => {
    const [day] = searchSlots({ ...base, bufferMin: 30, staffers: [staffer("a")] });
    expect(day?.slots.at(-1)).toEqual({
      start: T("2030-03-04", "10:30"),
      end: T("2030-03-04", "11:30"),
      stafferIds: ["a"],
      quantity: 1,
    });
  });

  it("minimum notice and the past remove early starts", () => {
    const [day] = searchSlots({
      ...base,
      location: { ...berlin, minNoticeMin: 60 },
      now: T("2030-03-04", "09:10"),
      staffers: [staffer("a")],
    });
    expect(day?.slots[0]?.start).toBe(T("2030-03-04", "10:15"));
  });

  it("overrides replace the weekly pattern: a day off, or other hours", () => {
    const off = searchSlots({
      ...base,
      staffers: [staffer("a", { overrides: [{ date: "2030-03-04", intervals: [] }] })],
    });
    expect(off[0]?.slots).toEqual([]);
    const late = searchSlots({
      ...base,
      staffers: [
        staffer("a", {
          overrides: [{ date: "2030-03-04", intervals: [{ start: "14:00", end: "15:00" }] }],
        }),
      ],
    });
    expect(late[0]?.slots.map((s) => s.start)).toEqual([T("2030-03-04", "14:00")]);
  });

  it("quantity counts the free staff; busy and blocked time remove a staffer", () => {
    const busy = [
      { start: T("2030-03-04", "10:00"), end: T("2030-03-04", "10:30"), kind: "booking" as const },
    ];
    const [day] = searchSlots({ ...base, staffers: [staffer("b", { busy }), staffer("a")] });
    const at = (t: string) => day?.slots.find((s) => s.start === T("2030-03-04", t))?.stafferIds;
    expect(at("09:00")).toEqual(["a", "b"]);
    expect(at("09:15")).toEqual(["a"]);
    expect(at("10:30")).toEqual(["a", "b"]);
  });

  it("checkStart gives the reason a start cannot be booked", () => {
    const s = staffer("a", {
      busy: [{ start: T("2030-03-04", "10:00"), end: T("2030-03-04", "11:00"), kind: "blocked" }],
    });
    const check = (t: string, now = 0) =>
      checkStart({
        location: berlin,
        staffer: s,
        durationMin: 30,
        bufferMin: 0,
        start: T("2030-03-04", t),
        now,
      });
    expect(check("09:05")).toBe("ok");
    expect(check("09:45")).toBe("busy");
    expect(check("11:45")).toBe("outside_hours");
    expect(check("09:00", T("2030-03-04", "09:30"))).toBe("in_past");
  });
});

describe("days with 23 or 25 hours", () => {
  it("Europe/Berlin spring forward (2026-03-29): 01:00–04:00 local is two hours long", () => {
    const s = staffer("a", { weekly: [{ weekday: 7, start: "01:00", end: "04:00" }] });
    const [day] = searchSlots({
      ...base,
      durationMin: 60,
      fromDate: "2026-03-29",
      toDate: "2026-03-29",
      staffers: [s],
    });
    // 01:00 CET = 00:00Z, 04:00 CEST = 02:00Z: starts 00:00Z … 01:00Z.
    expect(day?.slots.map((x) => new Date(x.start).toISOString())).toEqual([
      "2026-03-29T00:00:00.000Z",
      "2026-03-29T00:15:00.000Z",
      "2026-03-29T00:30:00.000Z",
      "2026-03-29T00:45:00.000Z",
      "2026-03-29T01:00:00.000Z",
    ]);
  });

  it("Europe/Berlin fall back (2026-10-25): 01:00–04:00 local is four hours long", () => {
    const s = staffer("a", { weekly: [{ weekday: 7, start: "01:00", end: "04:00" }] });
    const [day] = searchSlots({
      ...base,
      durationMin: 60,
      fromDate: "2026-10-25",
      toDate: "2026-10-25",
      staffers: [s],
    });
    expect(day?.slots).toHaveLength(13);
    expect(new Date(day?.slots[0]?.start ?? 0).toISOString()).toBe("2026-10-24T23:00:00.000Z");
  });

  it("Australia/Sydney fall back (2026-04-05) and spring forward (2026-10-04)", () => {
    const sydney = { timezone: "Australia/Sydney", slotStepMin: 30, minNoticeMin: 0 };
    const s = staffer("a", { weekly: [{ weekday: 7, start: "01:00", end: "05:00" }] });
    const run = (date: string) =>
      searchSlots({
        ...base,
        location: sydney,
        durationMin: 60,
        fromDate: date,
        toDate: date,
        staffers: [s],
      })[0]?.slots ?? [];
    // Fall back: 01:00 AEDT (UTC+11) to 05:00 AEST (UTC+10) is 5 hours → starts every 30 min for 4 hours.
    expect(run("2026-04-05")).toHaveLength(9);
    expect(new Date(run("2026-04-05")[0]?.start ?? 0).toISOString()).toBe(
      "2026-04-04T14:00:00.000Z",
    );
    // Spring forward: 01:00 AEST to 05:00 AEDT is 3 hours.
    expect(run("2026-10-04")).toHaveLength(5);
    expect(new Date(run("2026-10-04")[0]?.start ?? 0).toISOString()).toBe(
      "2026-10-03T15:00:00.000Z",
    );
  });

  it("a working start inside the spring-forward gap moves forward", () => {
    expect(new Date(T("2026-03-29", "02:30")).toISOString()).toBe("2026-03-29T01:30:00.000Z");
  });
});
