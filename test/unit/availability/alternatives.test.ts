import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type BusyInterval,
  checkStart,
  instantToLocalDate,
  localDateRange,
  nearestStarts,
  searchSlots,
  type StafferCalendarInput,
} from "../../../src/calendar/rules";

const MIN = 60_000;
const DAY = 86_400_000;
const hhmm = (m: number) =>
  `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;

const arbCase = fc
  .record({
    tz: fc.constantFrom("Europe/Berlin", "America/New_York", "Australia/Sydney", "UTC"),
    step: fc.constantFrom(10, 15, 30),
    duration: fc.integer({ min: 10, max: 120 }),
    buffer: fc.constantFrom(0, 15),
    day: fc.integer({ min: 0, max: 300 }),
    aroundMin: fc.integer({ min: 0, max: 24 * 60 - 1 }),
    nowOffsetMin: fc.integer({ min: -3 * 24 * 60, max: 24 * 60 }),
    staff: fc.array(
      fc.record({
        start: fc.integer({ min: 6 * 4, max: 12 * 4 }),
        len: fc.integer({ min: 8, max: 40 }),
        weekdays: fc.uniqueArray(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 7 }),
        busy: fc.array(
          fc.record({
            offsetMin: fc.integer({ min: -8 * 24 * 60, max: 8 * 24 * 60 }),
            lenMin: fc.integer({ min: 5, max: 600 }),
          }),
          { maxLength: 20 },
        ),
      }),
      { minLength: 1, maxLength: 3 },
    ),
  })
  .map((c) => {
    const origin = Date.UTC(2030, 0, 1) + c.day * DAY;
    const around = origin + c.aroundMin * MIN;
    const staffers: StafferCalendarInput[] = c.staff.map((s, i) => ({
      id: `s${i}`,
      weekly: s.weekdays.map((weekday) => ({
        weekday,
        start: hhmm(s.start * 15),
        end: hhmm(Math.min(s.start * 15 + s.len * 15, 24 * 60 - 1)),
      })),
      overrides: [],
      busy: s.busy.map((b): BusyInterval => ({
        start: around + b.offsetMin * MIN,
        end: around + (b.offsetMin + b.lenMin) * MIN,
        kind: "booking",
      })),
    }));
    return {
      location: { timezone: c.tz, slotStepMin: c.step, minNoticeMin: 0 },
      staffers,
      durationMin: c.duration,
      bufferMin: c.buffer,
      around,
      now: around + c.nowOffsetMin * MIN,
    };
  });

describe("nearestStarts", () => {
  it("is the slot search's own free starts near the refused one: same day first, nearest first, at most 5", () => {
    fc.assert(
      fc.property(arbCase, (c) => {
        const days = 3;
        const got = nearestStarts({
          location: c.location,
          staffers: c.staffers,
          services: [
            {
              durationMin: c.durationMin,
              bufferMin: c.bufferMin,
              stafferIds: c.staffers.map((s) => s.id),
            },
          ],
          around: c.around,
          now: c.now,
          limit: 5,
          days,
        });
        const today = instantToLocalDate(c.around, c.location.timezone);
        const shift = (n: number) =>
          new Date(Date.parse(`${today}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10);
        // Brute force: every free start the slot search lists in the same local days.
        const free = searchSlots({
          location: c.location,
          staffers: c.staffers,
          durationMin: c.durationMin,
          bufferMin: c.bufferMin,
          fromDate: shift(-days),
          toDate: shift(days),
          listStaffers: true as const,
          now: c.now,
        }).flatMap((d) =>
          d.slots
            .filter((s) => s.start !== c.around)
            .map((s) => ({ ...s, sameDay: d.date === today })),
        );
        const expected = free
          .sort(
            (a, b) =>
              Number(b.sameDay) - Number(a.sameDay) ||
              Math.abs(a.start - c.around) - Math.abs(b.start - c.around) ||
              a.start - b.start,
          )
          .slice(0, 5);
        expect(got.map((g) => g.start)).toEqual(expected.map((e) => e.start));
        // The staffer named is one the search lists at that start, and free then.
        got.forEach((g, i) => expect(expected[i]?.stafferIds).toContain(g.stafferId));
        for (const g of got) {
          const staffer = c.staffers.find((s) => s.id === g.stafferId);
          if (!staffer) throw new Error(`unknown staffer ${g.stafferId}`);
          const verdict = checkStart({
            location: c.location,
            staffer,
            durationMin: c.durationMin,
            bufferMin: c.bufferMin,
            start: g.start,
            now: c.now,
          });
          expect(verdict).toBe("ok");
        }
        expect(localDateRange(shift(-days), shift(days))).toHaveLength(2 * days + 1);
      }),
      { numRuns: 400 },
    );
  });

  it("keeps a fixed layout: every service at its offset with its own staffer, its own busy time only", () => {
    const location = { timezone: "UTC", slotStepMin: 15, minNoticeMin: 0 };
    const weekly = [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({
      weekday,
      start: "09:00",
      end: "17:00",
    }));
    const day = Date.UTC(2030, 0, 7);
    const staffers: StafferCalendarInput[] = [
      {
        id: "a",
        weekly,
        overrides: [],
        busy: [{ start: day + 10 * 60 * MIN, end: day + 11 * 60 * MIN, kind: "booking" }],
      },
      {
        id: "b",
        weekly,
        overrides: [],
        busy: [{ start: day + 12 * 60 * MIN, end: day + 13 * 60 * MIN, kind: "booking" }],
      },
    ];
    // a from the start for 60 min, b 60 minutes later for 60 min.
    const got = nearestStarts({
      location,
      staffers,
      services: [
        { durationMin: 60, bufferMin: 0, stafferIds: ["a"] },
        { durationMin: 60, bufferMin: 0, stafferIds: ["b"] },
      ],
      offsetsMs: [0, 60 * MIN],
      around: day + 10 * 60 * MIN,
      now: day,
      limit: 5,
      days: 0,
    });
    const at = (h: number, m = 0) => day + (h * 60 + m) * MIN;
    // a is busy 10–11, b 12–13: a start t needs a free at [t, t+1h) and b at [t+1h, t+2h),
    // so 09:00 and from 12:00 on.
    expect(got).toEqual(
      [at(9), at(12), at(12, 15), at(12, 30), at(12, 45)].map((start) => ({
        start,
        stafferId: "a",
      })),
    );
  });
});
