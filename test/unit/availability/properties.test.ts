import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type BusyInterval,
  checkStart,
  findCartStart,
  localDateRange,
  localDateTimeToInstant,
  type StafferCalendarInput,
  searchSlots,
} from "../../../src/calendar/rules";

const MIN = 60_000;
const zones = ["Europe/Berlin", "Australia/Sydney", "America/New_York", "UTC"];
const hhmm = (m: number) =>
  `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;

const arbInterval = fc
  .tuple(fc.integer({ min: 6 * 4, max: 20 * 4 }), fc.integer({ min: 1, max: 24 }))
  .map(([s, len]) => ({ start: hhmm(s * 15), end: hhmm(Math.min(s * 15 + len * 15, 24 * 60)) }));

const arbCase = fc
  .record({
    tz: fc.constantFrom(...zones),
    step: fc.constantFrom(5, 10, 15, 30),
    notice: fc.constantFrom(0, 30, 120),
    duration: fc.integer({ min: 5, max: 120 }),
    buffer: fc.constantFrom(0, 10, 15),
    startDay: fc.integer({ min: 0, max: 400 }),
    days: fc.integer({ min: 1, max: 6 }),
    staff: fc.array(
      fc.record({
        weekly: fc.array(fc.record({ weekday: fc.integer({ min: 1, max: 7 }), iv: arbInterval }), {
          maxLength: 6,
        }),
        busy: fc.array(
          fc.record({
            offsetMin: fc.integer({ min: 0, max: 7 * 24 * 60 }),
            lenMin: fc.integer({ min: 5, max: 240 }),
            blocked: fc.boolean(),
          }),
          { maxLength: 12 },
        ),
      }),
      { minLength: 1, maxLength: 4 },
    ),
    nowOffsetMin: fc.integer({ min: -24 * 60, max: 3 * 24 * 60 }),
  })
  .map((c) => {
    const from = new Date(Date.UTC(2026, 0, 1) + c.startDay * 86_400_000)
      .toISOString()
      .slice(0, 10);
    const to = new Date(Date.UTC(2026, 0, 1) + (c.startDay + c.days - 1) * 86_400_000)
      .toISOString()
      .slice(0, 10);
    const origin = Date.parse(`${from}T00:00:00Z`);
    const staffers: StafferCalendarInput[] = c.staff.map((s, i) => ({
      id: `s${i}`,
      weekly: dedupe(s.weekly.map((w) => ({ weekday: w.weekday, ...w.iv }))),
      overrides: [],
      busy: s.busy.map((b): BusyInterval => ({
        start: origin + b.offsetMin * MIN,
        end: origin + (b.offsetMin + b.lenMin) * MIN,
        kind: b.blocked ? "blocked" : "booking",
      })),
    }));
    return {
      input: {
        location: { timezone: c.tz, slotStepMin: c.step, minNoticeMin: c.notice },
        staffers,
        durationMin: c.duration,
        bufferMin: c.buffer,
        fromDate: from,
        toDate: to,
        now: origin + c.nowOffsetMin * MIN,
        listStaffers: true as const,
      },
    };
  });

/** Weekly intervals of a staffer never overlap on one weekday (the admin API refuses that). */
function dedupe<T extends { weekday: number; start: string; end: string }>(list: T[]): T[] {
  const kept: T[] = [];
  for (const w of list) {
    if (w.end <= w.start) continue;
    if (kept.some((k) => k.weekday === w.weekday && k.start < w.end && w.start < k.end)) continue;
    kept.push(w);
  }
  return kept;
}

type Input = ReturnType<(typeof arbCase)["generate"]>["value"]["input"];

/** ISO weekday (1 = Monday) of a YYYY-MM-DD date. */
const weekdayOf = (date: string) => ((new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7) + 1;

/** The local date of an instant in a zone, by Intl (not the engine's zone table). */
const localDateOf = (t: number, timeZone: string) =>
  new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(new Date(t));

/**
 * Brute force: is this staffer free for `needMin` minutes from `t` (inside one
 * working interval of t's local date, clear of busy time, not before notice)?
 */
function freeAt(input: Input, s: StafferCalendarInput, t: number, needMin: number): boolean {
  const tz = input.location.timezone;
  if (t < input.now + input.location.minNoticeMin * MIN) return false;
  const date = localDateOf(t, tz);
  const end = t + needMin * MIN;
  const inside = s.weekly
    .filter((w) => w.weekday === weekdayOf(date))
    .some(
      (w) =>
        localDateTimeToInstant(date, w.start, tz) <= t &&
        end <= localDateTimeToInstant(date, w.end, tz),
    );
  return inside && !s.busy.some((b) => b.start < end && t < b.end);
}

/** Brute force: every (date, start, staffer) free for the service, on each interval's grid. */
function oracleStarts(input: Input): Map<string, Map<number, Set<string>>> {
  const tz = input.location.timezone;
  const step = input.location.slotStepMin * MIN;
  const need = (input.durationMin + input.bufferMin) * MIN;
  const earliest = input.now + input.location.minNoticeMin * MIN;
  const out = new Map<string, Map<number, Set<string>>>();
  for (const date of localDateRange(input.fromDate, input.toDate)) {
    const starts = new Map<number, Set<string>>();
    out.set(date, starts);
    for (const s of input.staffers)
      for (const w of s.weekly.filter((x) => x.weekday === weekdayOf(date))) {
        const ws = localDateTimeToInstant(date, w.start, tz);
        const we = localDateTimeToInstant(date, w.end, tz);
        for (let t = ws; t + need <= we; t += step) {
          if (t < earliest || s.busy.some((b) => b.start < t + need && t < b.end)) continue;
          const ids = starts.get(t) ?? new Set<string>();
          ids.add(s.id);
          starts.set(t, ids);
        }
      }
  }
  return out;
}

describe("slot engine properties", () => {
  it("no slot overlaps busy time and every slot lies inside working hours of each listed staffer", () => {
    fc.assert(
      fc.property(arbCase, ({ input }) => {
        const byId = new Map(input.staffers.map((s) => [s.id, s]));
        for (const day of searchSlots(input)) {
          for (const slot of day.slots) {
            const need = slot.start + (input.durationMin + input.bufferMin) * MIN;
            expect(slot.start).toBeGreaterThanOrEqual(
              input.now + input.location.minNoticeMin * MIN,
            );
            for (const id of slot.stafferIds) {
              const s = byId.get(id);
              if (!s) throw new Error("unknown staffer");
              expect(s.busy.some((b) => b.start < need && slot.start < b.end)).toBe(false);
              expect(
                checkStart({
                  location: input.location,
                  staffer: s,
                  durationMin: input.durationMin,
                  bufferMin: input.bufferMin,
                  start: slot.start,
                  now: input.now,
                }),
              ).toBe("ok");
            }
          }
        }
      }),
      { numRuns: 150 },
    );
  });

  it("quantity equals the staff a brute-force check finds free at that start", () => {
    fc.assert(
      fc.property(arbCase, ({ input }) => {
        for (const day of searchSlots(input)) {
          for (const slot of day.slots) {
            const free = input.staffers
              .filter((s) => {
                const weekday = ((new Date(`${day.date}T00:00:00Z`).getUTCDay() + 6) % 7) + 1;
                const need = slot.start + (input.durationMin + input.bufferMin) * MIN;
                const inside = s.weekly
                  .filter((w) => w.weekday === weekday)
                  .some((w) => {
                    const ws = localDateTimeToInstant(day.date, w.start, input.location.timezone);
                    const we = localDateTimeToInstant(day.date, w.end, input.location.timezone);
                    return (
                      ws <= slot.start &&
                      need <= we &&
                      (slot.start - ws) % (input.location.slotStepMin * MIN) === 0
                    );
                  });
                return inside && !s.busy.some((b) => b.start < need && slot.start < b.end);
              })
              .map((s) => s.id)
              .sort();
            expect(slot.stafferIds).toEqual(free);
          }
        }
      }),
      { numRuns: 150 },
    );
  });

  it("is complete: every start the brute-force oracle finds free is offered, with that staffer", () => {
    let withFreeStarts = 0;
    fc.assert(
      fc.property(arbCase, ({ input }) => {
        const expected = oracleStarts(input);
        const found = new Map(
          searchSlots(input).map((d) => [
            d.date,
            new Map(d.slots.map((s) => [s.start, new Set(s.stafferIds)])),
          ]),
        );
        let any = false;
        for (const [date, starts] of expected)
          for (const [t, ids] of starts) {
            any = true;
            const offered = found.get(date)?.get(t);
            expect(offered, `${date} ${new Date(t).toISOString()} missing`).toBeDefined();
            for (const id of ids) expect(offered?.has(id), `${id} at ${t}`).toBe(true);
          }
        // And nothing beyond the oracle (together: the engine's slots are exactly the oracle's).
        for (const [date, starts] of found)
          for (const [t, ids] of starts)
            expect([...ids].sort()).toEqual([...(expected.get(date)?.get(t) ?? [])].sort());
        if (any) withFreeStarts++;
      }),
      { numRuns: 200 },
    );
    // The generator is not vacuous: most cases have free starts to find.
    expect(withFreeStarts).toBeGreaterThan(50);
  });

  it("searching a range whole equals searching its days one by one", () => {
    fc.assert(
      fc.property(arbCase, ({ input }) => {
        const whole = searchSlots(input);
        const pieces = localDateRange(input.fromDate, input.toDate).flatMap((d) =>
          searchSlots({ ...input, fromDate: d, toDate: d }),
        );
        expect(whole).toEqual(pieces);
      }),
      { numRuns: 100 },
    );
  });

  it("cart placements run back to back on free staff, never overlap for one staffer, and are found whenever the brute force finds free staff for each service", () => {
    let placedRuns = 0;
    let refusedRuns = 0;
    fc.assert(
      fc.property(
        arbCase,
        fc.array(fc.integer({ min: 5, max: 90 }), { minLength: 1, maxLength: 4 }),
        fc.nat(),
        ({ input }, durations, pick) => {
          const starts = searchSlots(input).flatMap((d) => d.slots.map((s) => s.start));
          // A cart starts on an offered slot: cases without one are not carts to test.
          fc.pre(starts.length > 0);
          const start = starts[pick % starts.length] as number;
          const services = durations.map((d) => ({
            durationMin: d,
            bufferMin: 5,
            stafferIds: input.staffers.map((s) => s.id),
          }));
          const placed = findCartStart({
            location: input.location,
            services,
            staffers: input.staffers,
            start,
            now: input.now,
          });
          // Oracle: each service starts when the previous one's time and buffer are over and
          // needs one free candidate then (earlier services end before it starts, so the
          // choices never interfere): the cart fits exactly when every service has one.
          let at = start;
          let fits = true;
          for (const d of durations) {
            if (!input.staffers.some((s) => freeAt(input, s, at, d + 5))) fits = false;
            at += (d + 5) * MIN;
          }
          expect(placed !== null, `oracle says ${fits ? "fits" : "does not fit"}`).toBe(fits);
          if (!placed) {
            refusedRuns++;
            return;
          }
          placedRuns++;
          expect(placed).toHaveLength(durations.length);
          let t = start;
          placed.forEach((p, i) => {
            expect(p.start).toBe(t);
            t = p.end + 5 * MIN;
            expect(p.end - p.start).toBe((durations[i] ?? 0) * MIN);
            const s = input.staffers.find((x) => x.id === p.stafferId);
            expect(s?.busy.some((b) => b.start < p.end + 5 * MIN && p.start < b.end)).toBe(false);
          });
          for (const a of placed)
            for (const b of placed)
              if (a !== b && a.stafferId === b.stafferId)
                expect(a.end <= b.start || b.end <= a.start).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
    // Both outcomes were exercised.
    expect(placedRuns).toBeGreaterThan(20);
    expect(refusedRuns).toBeGreaterThan(5);
  });

  it("a one-service cart equal to the searched service is placed at every offered start", () => {
    fc.assert(
      fc.property(arbCase, ({ input }) => {
        const days = searchSlots(input);
        const slots = days.flatMap((d) => d.slots);
        fc.pre(slots.length > 0);
        for (const slot of slots) {
          const placed = findCartStart({
            location: input.location,
            services: [
              {
                durationMin: input.durationMin,
                bufferMin: input.bufferMin,
                stafferIds: input.staffers.map((s) => s.id),
              },
            ],
            staffers: input.staffers,
            start: slot.start,
            now: input.now,
          });
          expect(placed).toHaveLength(1);
          // Any staffer free then (a cart is not held to another staffer's grid).
          const chosen = input.staffers.find((s) => s.id === placed?.[0]?.stafferId);
          if (!chosen) throw new Error(`unknown staffer ${placed?.[0]?.stafferId}`);
          expect(freeAt(input, chosen, slot.start, input.durationMin + input.bufferMin)).toBe(true);
        }
      }),
      { numRuns: 100 },
    );
  });
});
