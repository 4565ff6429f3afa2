import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type BusyInterval,
  checkStart,
  findCartStart,
  searchSlots,
  sessionAskOf,
  sessionKey,
  type StafferCalendarInput,
} from "../../../src/calendar/rules";
import { seatsTakenAt, sessionFit, splitBusy } from "../../../src/calendar/rules/sessions";
import { SeatCount } from "../../../src/calendar/object/seat-count";
import type { CalendarEntry } from "../../../src/calendar/types";

const MIN = 60_000;
/** Monday 2030-03-04 in UTC: working hours 09–18. */
const day = "2030-03-04";
const t = (hhmm: string) => Date.parse(`${day}T${hhmm}:00Z`);
const location = { timezone: "UTC", slotStepMin: 30, minNoticeMin: 0 };
const weekly = [1, 2, 3, 4, 5].map((weekday) => ({ weekday, start: "09:00", end: "18:00" }));
const yoga = { id: "yoga", capacity: 5 };
const now = t("00:00");

const seat = (staffer: string, start: string, seats: number, service = yoga): BusyInterval => ({
  start: t(start),
  end: t(start) + 60 * MIN,
  kind: "booking",
  session: { key: sessionKey(service.id, staffer, t(start)), seats, capacity: service.capacity },
});
const staffer = (id: string, busy: BusyInterval[] = []): StafferCalendarInput => ({
  id,
  weekly,
  overrides: [],
  busy,
});
const check = (s: StafferCalendarInput, start: string, seats = 1) =>
  checkStart({
    location,
    staffer: s,
    durationMin: 60,
    bufferMin: 0,
    start: t(start),
    now,
    session: sessionAskOf(yoga, seats),
  });

describe("sessionAskOf", () => {
  it("asks for a session only for a group service", () => {
    expect(sessionAskOf({ id: "cut", capacity: 1 })).toBeUndefined();
    expect(sessionAskOf(yoga, 3)).toEqual({ serviceId: "yoga", capacity: 5, seats: 3 });
  });
});

describe("checkStart with seats", () => {
  it("joins an open session while seats are left, full beyond", () => {
    const s = staffer("a", [seat("a", "10:00", 3)]);
    expect(check(s, "10:00", 2)).toBe("ok");
    expect(check(s, "10:00", 3)).toBe("full");
  });

  it("a start overlapping another session, or a one-to-one booking, is busy", () => {
    const s = staffer("a", [
      seat("a", "10:00", 1),
      { start: t("14:00"), end: t("15:00"), kind: "booking" },
    ]);
    expect(check(s, "10:30")).toBe("busy");
    expect(check(s, "14:00")).toBe("busy");
    // A one-to-one service may not overlap the session either.
    expect(
      checkStart({ location, staffer: s, durationMin: 30, bufferMin: 0, start: t("10:15"), now }),
    ).toBe("busy");
  });

  it("another staffer's session with the same service and start is another session", () => {
    const s = staffer("a", [seat("b", "10:00", 5)]);
    expect(check(s, "10:00")).toBe("busy");
  });
});

describe("slot search for a group service", () => {
  it("shows an open session's seats left, a free staffer's capacity, and hides full ones", () => {
    const days = searchSlots({
      location,
      staffers: [staffer("a", [seat("a", "10:00", 3)]), staffer("b", [seat("b", "11:00", 5)])],
      durationMin: 60,
      bufferMin: 0,
      fromDate: day,
      toDate: day,
      now,
      session: sessionAskOf(yoga),
    });
    const q = new Map(days[0]?.slots.map((s) => [s.start, s.quantity]));
    expect(q.get(t("10:00"))).toBe(2 + 5);
    // b's 11:00 session is full, a is free at 11:00 (its session ends then).
    expect(q.get(t("11:00"))).toBe(5);
    // 10:30 overlaps a's session and b's: neither is that session.
    expect(q.has(t("10:30"))).toBe(false);
    expect(q.get(t("09:00"))).toBe(10);
  });

  it("new sessions need a free unit; an open session has its unit", () => {
    const unitBusy: BusyInterval = { ...seat("a", "10:00", 1) };
    const days = searchSlots({
      location,
      staffers: [staffer("a", [seat("a", "10:00", 1)]), staffer("b")],
      durationMin: 60,
      bufferMin: 0,
      fromDate: day,
      toDate: day,
      now,
      resources: [{ id: "room", units: [{ id: "room#1", busy: [unitBusy] }] }],
      session: sessionAskOf(yoga),
    });
    const q = new Map(days[0]?.slots.map((s) => [s.start, s.quantity]));
    // a's open session: 4 seats; b cannot open one (the only room is a's session's).
    expect(q.get(t("10:00"))).toBe(4);
    expect(q.get(t("09:00"))).toBe(5);
  });
});

describe("placing a group booking", () => {
  it("an 'anyone' booking joins the open session and its unit before opening another", () => {
    const unitBusy: BusyInterval = { ...seat("b", "10:00", 2) };
    const placed = findCartStart({
      location,
      services: [
        {
          durationMin: 60,
          bufferMin: 0,
          stafferIds: ["a", "b"],
          resourceIds: ["room"],
          session: sessionAskOf(yoga, 2),
        },
      ],
      staffers: [staffer("a"), staffer("b", [seat("b", "10:00", 2)])],
      resources: [
        {
          id: "room",
          units: [
            { id: "room#1", busy: [] },
            { id: "room#2", busy: [unitBusy] },
          ],
        },
      ],
      start: t("10:00"),
      now,
    });
    expect(placed?.[0]).toMatchObject({ stafferId: "b", unitIds: ["room#2"] });
  });
});

describe("seats never pass the capacity (property)", () => {
  it("sessionFit admits a seat exactly when the taken seats plus it fit", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 100 }),
        fc.array(fc.integer({ min: 1, max: 10 }), { maxLength: 12 }),
        fc.integer({ min: 1, max: 100 }),
        (capacity, taken, asked) => {
          const service = { id: "s", capacity };
          const busy = taken.map((n) => seat("a", "10:00", n, service));
          const fit = sessionFit(
            splitBusy(busy),
            { serviceId: "s", capacity, seats: asked },
            "a",
            t("10:00"),
            t("11:00"),
          );
          const sum = taken.reduce((a, b) => a + b, 0);
          expect(fit.verdict).toBe(sum + asked <= capacity ? "ok" : "full");
        },
      ),
    );
  });

  it("claims granted one after another by SeatCount never overfill a session", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 30 }),
        (capacity, asks) => {
          const granted: CalendarEntry[] = [];
          for (const [i, seats] of asks.entries()) {
            const count = new SeatCount();
            for (const g of granted) count.mate(g);
            const session = { key: "k", seats, capacity };
            count.add(session);
            if (count.overfull()) continue;
            granted.push({
              id: `e${i}`,
              kind: "booking",
              source: `b${i}`,
              start: 0,
              end: 1,
              session,
            });
          }
          const sum = granted.reduce((n, g) => n + (g.session?.seats ?? 0), 0);
          expect(sum).toBeLessThanOrEqual(capacity);
          // Greedy in arrival order: a refused ask did not fit what was granted before it.
          const ones = asks.filter((a) => a === 1).length;
          if (asks.every((a) => a === 1)) expect(granted).toHaveLength(Math.min(ones, capacity));
        },
      ),
    );
  });
});

describe("seatsTakenAt against a brute force (property)", () => {
  it("counts the key's seats, or null when anything else overlaps", () => {
    const arbEntry = fc.record({
      startQ: fc.integer({ min: 0, max: 40 }),
      lenQ: fc.integer({ min: 1, max: 12 }),
      key: fc.option(fc.constantFrom("k1", "k2"), { nil: undefined }),
      seats: fc.integer({ min: 1, max: 5 }),
    });
    fc.assert(
      fc.property(
        fc.array(arbEntry, { maxLength: 25 }),
        fc.integer({ min: 0, max: 44 }),
        fc.integer({ min: 1, max: 8 }),
        (raw, fromQ, lenQ) => {
          const q = 15 * MIN;
          const busy: BusyInterval[] = raw.map((e) => ({
            start: e.startQ * q,
            end: (e.startQ + e.lenQ) * q,
            kind: "booking",
            ...(e.key ? { session: { key: e.key, seats: e.seats, capacity: 100 } } : {}),
          }));
          const [start, end] = [fromQ * q, (fromQ + lenQ) * q];
          const hits = busy.filter((b) => b.start < end && start < b.end);
          const expected = hits.every((b) => b.session?.key === "k1")
            ? hits.reduce((n, b) => n + (b.session?.seats ?? 0), 0)
            : null;
          expect(seatsTakenAt(splitBusy(busy), "k1", start, end)).toBe(expected);
        },
      ),
      { numRuns: 500 },
    );
  });
});
