import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type BusyInterval,
  type CartService,
  type DaySlots,
  firstCartFitPerDay,
  localDateTimeToInstant,
  nearestStarts,
  nextCartFit,
  type ResourceInput,
  type SessionAsk,
  sessionKey,
  type SlotSearchInput,
  searchSlots,
  type StafferCalendarInput,
} from "../../../src/calendar/rules";
import * as before from "../../oracles/engine-before-scale";

/**
 * The chain-scale engine against the engine as it was (test/oracles): the
 * same slots, quantities, staffers, cart fits and alternatives on calendars
 * built to hit what the rewrite changed: overrides and split days, starts
 * off the quarter hour, long and overlapping busy time, days with DST
 * changes, group sessions with seats taken, units of resources, carts that
 * run past midnight, and inputs in any order.
 */

const MIN = 60_000;
const DAY = 86_400_000;
const hhmm = (m: number) =>
  `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;

const SERVICE = "class";

const arbSpan = fc
  .tuple(fc.integer({ min: 0, max: 23 * 12 }), fc.integer({ min: 1, max: 16 * 12 }))
  .map(([s, len]) => ({ start: hhmm(s * 5), end: hhmm(Math.min(s * 5 + len * 5, 24 * 60)) }));

const arbBusy = fc.record({
  offsetMin: fc.integer({ min: -24 * 60, max: 6 * 24 * 60 }),
  lenMin: fc.oneof(fc.integer({ min: 1, max: 180 }), fc.integer({ min: 180, max: 3 * 24 * 60 })),
  kind: fc.constantFrom("booking", "booking", "blocked", "held", "external"),
  // A seat of the group service at a whole hour: joins or blocks a session.
  seats: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined, freq: 4 }),
});

const arbCase = fc
  .record({
    // Days around the spring and autumn changes of each zone come up often.
    tz: fc.constantFrom(
      "Europe/Berlin",
      "America/New_York",
      "Australia/Sydney",
      "UTC",
      "Asia/Kathmandu",
    ),
    startDay: fc.oneof(
      fc.integer({ min: 0, max: 700 }),
      fc.constantFrom(86, 87, 303, 304, 94, 95, 276, 277, 432, 433),
    ),
    days: fc.integer({ min: 1, max: 6 }),
    step: fc.constantFrom(5, 10, 15, 20, 30, 60),
    notice: fc.constantFrom(0, 45, 240),
    nowOffsetMin: fc.integer({ min: -2 * 24 * 60, max: 4 * 24 * 60 }),
    capacity: fc.constantFrom(1, 1, 3),
    staff: fc.array(
      fc.record({
        weekly: fc.array(fc.record({ weekday: fc.integer({ min: 1, max: 7 }), span: arbSpan }), {
          maxLength: 9,
        }),
        overrides: fc.array(
          fc.record({
            day: fc.integer({ min: -1, max: 6 }),
            spans: fc.array(arbSpan, { maxLength: 2 }),
          }),
          { maxLength: 2 },
        ),
        busy: fc.array(arbBusy, { maxLength: 14 }),
        shuffle: fc.boolean(),
      }),
      { minLength: 1, maxLength: 6 },
    ),
    resources: fc.array(fc.array(fc.array(arbBusy, { maxLength: 6 }), { maxLength: 3 }), {
      maxLength: 2,
    }),
  })
  .map((c) => {
    const dayAt = (n: number) =>
      new Date(Date.UTC(2029, 0, 1) + (c.startDay + n) * DAY).toISOString().slice(0, 10);
    const from = dayAt(0);
    const origin = localDateTimeToInstant(from, "00:00", c.tz);
    const busyOf = (list: (typeof c.staff)[number]["busy"], calendar: string) =>
      list.map((b): BusyInterval => {
        if (b.seats === undefined || c.capacity === 1) {
          return {
            start: origin + b.offsetMin * MIN,
            end: origin + (b.offsetMin + b.lenMin) * MIN,
            kind: b.kind as BusyInterval["kind"],
          };
        }
        const start = origin + Math.round(b.offsetMin / 60) * 60 * MIN;
        return {
          start,
          end: start + 60 * MIN,
          kind: "booking",
          session: { key: sessionKey(SERVICE, calendar, start), seats: b.seats, capacity: 3 },
        };
      });
    const staffers: StafferCalendarInput[] = c.staff.map((s, i) => {
      const busy = busyOf(s.busy, `s${i}`);
      // D1 reads in start order; the engine must not depend on it.
      if (!s.shuffle) busy.sort((a, b) => a.start - b.start);
      return {
        id: `s${i}`,
        weekly: dedupe(s.weekly.map((w) => ({ weekday: w.weekday, ...w.span }))),
        overrides: uniqueDays(s.overrides).map((o) => ({
          date: dayAt(o.day),
          intervals: dedupe(o.spans.map((sp) => ({ weekday: 0, ...sp }))).map(({ start, end }) => ({
            start,
            end,
          })),
        })),
        busy,
      };
    });
    const resources: ResourceInput[] = c.resources.map((units, r) => ({
      id: `r${r}`,
      units: units.map((u, i) => ({ id: `r${r}u${i}`, busy: busyOf(u, `r${r}u${i}`) })),
    }));
    const session: SessionAsk | undefined =
      c.capacity > 1 ? { serviceId: SERVICE, capacity: c.capacity, seats: 1 } : undefined;
    return {
      location: { timezone: c.tz, slotStepMin: c.step, minNoticeMin: c.notice },
      staffers,
      resources,
      session,
      fromDate: from,
      toDate: dayAt(c.days - 1),
      now: origin + c.nowOffsetMin * MIN,
      days: c.days,
    };
  });

/** A staffer's weekly (or one date's) spans never overlap (the admin API refuses that). */
function dedupe<T extends { weekday: number; start: string; end: string }>(list: T[]): T[] {
  const kept: T[] = [];
  for (const w of list) {
    if (w.end <= w.start) continue;
    if (kept.some((k) => k.weekday === w.weekday && k.start < w.end && w.start < k.end)) continue;
    kept.push(w);
  }
  return kept;
}

function uniqueDays<T extends { day: number }>(list: T[]): T[] {
  return list.filter((o, i) => list.findIndex((x) => x.day === o.day) === i);
}

const arbServices = fc.array(
  fc.record({
    duration: fc.integer({ min: 5, max: 240 }),
    buffer: fc.constantFrom(0, 5, 15),
    /** Which staffers perform it (bit mask over the staff), and whether it needs the resources. */
    mask: fc.integer({ min: 1, max: 63 }),
    needsUnits: fc.boolean(),
    group: fc.boolean(),
  }),
  { minLength: 1, maxLength: 5 },
);

function cartOf(
  c: { staffers: StafferCalendarInput[]; resources: ResourceInput[]; session?: SessionAsk },
  shapes: { duration: number; buffer: number; mask: number; needsUnits: boolean; group: boolean }[],
): CartService[] {
  return shapes.map((s) => {
    const ids = c.staffers.filter((_, i) => (s.mask >> i) & 1).map((x) => x.id);
    return {
      durationMin: s.group && c.session ? 60 : s.duration,
      bufferMin: s.group && c.session ? 0 : s.buffer,
      stafferIds: ids.length > 0 ? ids : [c.staffers[0]?.id ?? "s0"],
      resourceIds: s.needsUnits ? c.resources.map((r) => r.id) : [],
      session: s.group ? c.session : undefined,
    };
  });
}

/** The old search always listed staffers and had no notion of not listing them. */
const withoutIds = (days: DaySlots[]) =>
  days.map((d) => ({
    ...d,
    slots: d.slots.map(({ stafferIds: _, ...rest }) => rest),
  }));

describe("the chain-scale engine gives the engine-before's answers", () => {
  it("slot search: the same slots, quantities and intervals; the same staffers when listed", () => {
    let slots = 0;
    fc.assert(
      fc.property(
        arbCase,
        fc.integer({ min: 5, max: 180 }),
        fc.constantFrom(0, 10),
        fc.boolean(),
        (c, duration, buffer, withUnits) => {
          const input: SlotSearchInput = {
            location: c.location,
            staffers: c.staffers,
            durationMin: c.session ? 60 : duration,
            bufferMin: c.session ? 0 : buffer,
            fromDate: c.fromDate,
            toDate: c.toDate,
            now: c.now,
            resources: withUnits ? c.resources : undefined,
            session: c.session,
          };
          const old = before.searchSlots(input);
          const listed = searchSlots({ ...input, listStaffers: true });
          expect(listed).toEqual(old);
          expect(searchSlots(input)).toEqual(withoutIds(old));
          slots += old.reduce((n, d) => n + d.slots.length, 0);
        },
      ),
      { numRuns: 400 },
    );
    // The generator offers real work, not empty days.
    expect(slots).toBeGreaterThan(2_000);
  });

  it("group sessions on hour-aligned calendars (seats often full): the same seats left at every start", () => {
    let full = 0;
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 4 }),
        fc.constantFrom(30, 60),
        fc.array(
          fc.array(
            fc.record({
              hour: fc.integer({ min: 0, max: 3 * 24 }),
              seats: fc.integer({ min: 1, max: 4 }),
              other: fc.boolean(),
            }),
            { maxLength: 12 },
          ),
          { minLength: 1, maxLength: 4 },
        ),
        (capacity, step, calendars) => {
          const origin = Date.UTC(2030, 2, 4);
          const staffers: StafferCalendarInput[] = calendars.map((entries, i) => ({
            id: `s${i}`,
            weekly: [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({
              weekday,
              start: "08:00",
              end: "20:00",
            })),
            overrides: [],
            busy: entries.map((e): BusyInterval => {
              const start = origin + e.hour * 3_600_000;
              // Another service's session at the same start is in the way, like any busy time.
              const service = e.other ? "other" : SERVICE;
              return {
                start,
                end: start + 60 * MIN,
                kind: "booking",
                session: { key: sessionKey(service, `s${i}`, start), seats: e.seats, capacity },
              };
            }),
          }));
          const input: SlotSearchInput = {
            location: { timezone: "UTC", slotStepMin: step, minNoticeMin: 0 },
            staffers,
            durationMin: 60,
            bufferMin: 0,
            fromDate: "2030-03-04",
            toDate: "2030-03-06",
            now: origin,
            session: { serviceId: SERVICE, capacity, seats: 1 },
          };
          const old = before.searchSlots(input);
          expect(searchSlots({ ...input, listStaffers: true })).toEqual(old);
          const starts = new Set(old.flatMap((d) => d.slots.map((x) => x.start)));
          full += staffers.filter((st) =>
            st.busy.some((b) => b.session && !starts.has(b.start) && b.session.seats >= capacity),
          ).length;
        },
      ),
      { numRuns: 200 },
    );
    // Full sessions (not listed) come up often.
    expect(full).toBeGreaterThan(50);
  });

  it("a session entry of no seats still ends a run of new sessions, as before", () => {
    const T = (h: number) => Date.UTC(2030, 2, 4, h);
    const input: SlotSearchInput = {
      location: { timezone: "UTC", slotStepMin: 15, minNoticeMin: 0 },
      staffers: [
        {
          id: "a",
          weekly: [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({
            weekday,
            start: "10:00",
            end: "12:00",
          })),
          overrides: [],
          busy: [
            {
              start: T(10),
              end: T(11),
              kind: "booking",
              session: { key: sessionKey(SERVICE, "a", T(10)), seats: 0, capacity: 3 },
            },
          ],
        },
      ],
      durationMin: 60,
      bufferMin: 0,
      fromDate: "2030-03-04",
      toDate: "2030-03-04",
      now: 0,
      session: { serviceId: SERVICE, capacity: 3, seats: 1 },
    };
    const old = before.searchSlots(input);
    expect(old[0]?.slots.map((s) => s.start)).toEqual([T(10), T(11)]);
    expect(searchSlots({ ...input, listStaffers: true })).toEqual(old);
  });

  it("cart calendar and cart next: the same days, starts, staffers and units", () => {
    let fits = 0;
    fc.assert(
      fc.property(arbCase, arbServices, (c, shapes) => {
        const services = cartOf(c, shapes);
        const args = {
          location: c.location,
          services,
          staffers: c.staffers,
          resources: c.resources,
          fromDate: c.fromDate,
          toDate: c.toDate,
          now: c.now,
        };
        const old = before.firstCartFitPerDay(args);
        expect(firstCartFitPerDay(args)).toEqual(old);
        fits += old.length;
        const nextArgs = { ...args, now: Math.max(c.now, Date.parse(`${c.fromDate}T00:00:00Z`)) };
        expect(nextCartFit(nextArgs, 8)).toEqual(before.nextCartFit(nextArgs, 8));
      }),
      { numRuns: 300 },
    );
    expect(fits).toBeGreaterThan(100);
  });

  it("alternatives near a refused start: the same starts with the same staffers, in the same order", () => {
    let found = 0;
    fc.assert(
      fc.property(
        arbCase,
        arbServices,
        fc.integer({ min: 0, max: 4 * 24 * 60 }),
        (c, shapes, aroundMin) => {
          const around = Date.parse(`${c.fromDate}T00:00:00Z`) + aroundMin * MIN;
          const args = {
            location: c.location,
            staffers: c.staffers,
            services: cartOf(c, shapes),
            resources: c.resources,
            around,
            now: c.now,
            days: 2,
            limit: 8,
          };
          const old = before.nearestStarts(args);
          expect(nearestStarts(args)).toEqual(old);
          found += old.length;
        },
      ),
      { numRuns: 300 },
    );
    expect(found).toBeGreaterThan(200);
  });
});
