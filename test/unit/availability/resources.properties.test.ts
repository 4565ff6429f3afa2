import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type BusyInterval,
  type CartService,
  type DaySlots,
  findCartStart,
  localDateRange,
  type ResourceInput,
  type SlotSearchInput,
  type StafferCalendarInput,
  searchSlots,
} from "../../../src/calendar/rules";
import { findCartStart as legacyFindCartStart, legacySearchSlots } from "./legacy-engine";

const MIN = 60_000;
const DAY = 86_400_000;
const hhmm = (m: number) =>
  `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;

const arbWorking = fc
  .tuple(fc.integer({ min: 6 * 4, max: 20 * 4 }), fc.integer({ min: 1, max: 24 }))
  .map(([s, len]) => ({ start: hhmm(s * 15), end: hhmm(Math.min(s * 15 + len * 15, 24 * 60)) }));

const arbBusy = (maxLength: number) =>
  fc.array(
    fc.record({
      offsetMin: fc.integer({ min: 0, max: 7 * 24 * 60 }),
      lenMin: fc.integer({ min: 5, max: 240 }),
      blocked: fc.boolean(),
    }),
    { maxLength },
  );

/** Staffers (working hours + busy time) and resources (units with busy time) over a few days. */
const arbCase = fc
  .record({
    tz: fc.constantFrom("Europe/Berlin", "Australia/Sydney", "America/New_York", "UTC"),
    step: fc.constantFrom(10, 15, 30),
    notice: fc.constantFrom(0, 30, 120),
    duration: fc.integer({ min: 5, max: 120 }),
    buffer: fc.constantFrom(0, 10, 15),
    startDay: fc.integer({ min: 0, max: 400 }),
    days: fc.integer({ min: 1, max: 5 }),
    staff: fc.array(
      fc.record({
        weekly: fc.array(fc.record({ weekday: fc.integer({ min: 1, max: 7 }), iv: arbWorking }), {
          maxLength: 6,
        }),
        busy: arbBusy(10),
      }),
      { minLength: 1, maxLength: 5 },
    ),
    resources: fc.array(fc.array(arbBusy(8), { maxLength: 4 }), { maxLength: 3 }),
    nowOffsetMin: fc.integer({ min: -24 * 60, max: 3 * 24 * 60 }),
  })
  .map((c) => {
    const from = new Date(Date.UTC(2026, 0, 1) + c.startDay * DAY).toISOString().slice(0, 10);
    const to = new Date(Date.UTC(2026, 0, 1) + (c.startDay + c.days - 1) * DAY)
      .toISOString()
      .slice(0, 10);
    const origin = Date.parse(`${from}T00:00:00Z`);
    const busy = (list: { offsetMin: number; lenMin: number; blocked: boolean }[]) =>
      list.map((b): BusyInterval => ({
        start: origin + b.offsetMin * MIN,
        end: origin + (b.offsetMin + b.lenMin) * MIN,
        kind: b.blocked ? "blocked" : "booking",
      }));
    const staffers: StafferCalendarInput[] = c.staff.map((s, i) => ({
      id: `s${i}`,
      weekly: dedupe(s.weekly.map((w) => ({ weekday: w.weekday, ...w.iv }))),
      overrides: [],
      busy: busy(s.busy),
    }));
    const resources: ResourceInput[] = c.resources.map((units, r) => ({
      id: `r${r}`,
      units: units.map((u, i) => ({ id: `r${r}u${i}`, busy: busy(u) })),
    }));
    const input: SlotSearchInput & { listStaffers: true } = {
      location: { timezone: c.tz, slotStepMin: c.step, minNoticeMin: c.notice },
      staffers,
      durationMin: c.duration,
      bufferMin: c.buffer,
      fromDate: from,
      toDate: to,
      now: origin + c.nowOffsetMin * MIN,
      resources,
      listStaffers: true,
    };
    return input;
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

const overlaps = (busy: BusyInterval[], start: number, end: number) =>
  busy.some((b) => b.start < end && start < b.end);

/** Slots without quantity, the shape the engine had before resources. */
const legacyShape = (days: DaySlots[]) =>
  days.map((d) => ({
    date: d.date,
    slots: d.slots.map(({ start, end, stafferIds }) => ({ start, end, stafferIds })),
    intervals: d.intervals,
  }));

describe("slot engine resource properties", () => {
  it("quantity is the smaller of the free staffers and, per resource, the units a brute force finds free", () => {
    let capped = 0;
    fc.assert(
      fc.property(arbCase, (input) => {
        const need = (input.durationMin + input.bufferMin) * MIN;
        const staffOnly = new Map(
          searchSlots({ ...input, resources: undefined })
            .flatMap((d) => d.slots)
            .map((s) => [s.start, s]),
        );
        const listed = new Map(
          searchSlots(input)
            .flatMap((d) => d.slots)
            .map((s) => [s.start, s]),
        );
        for (const [start, slot] of staffOnly) {
          const expected = Math.min(
            slot.stafferIds.length,
            ...(input.resources ?? []).map(
              (r) => r.units.filter((u) => !overlaps(u.busy, start, start + need)).length,
            ),
          );
          if (expected < slot.stafferIds.length) capped++;
          const got = listed.get(start);
          if (expected === 0) expect(got).toBeUndefined();
          else expect(got).toEqual({ ...slot, quantity: expected });
        }
        // Resources never add a start.
        for (const start of listed.keys()) expect(staffOnly.has(start)).toBe(true);
      }),
      { numRuns: 200 },
    );
    // The generator makes resources the limit often enough to matter.
    expect(capped).toBeGreaterThan(50);
  });

  it("no slot needs more units than exist: `quantity` bookings placed one after another at its start all fit, one more does not", () => {
    let checked = 0;
    fc.assert(
      fc.property(arbCase, fc.nat(), (input, pick) => {
        const slots = searchSlots(input).flatMap((d) => d.slots);
        fc.pre(slots.length > 0);
        const resources = input.resources ?? [];
        const need = (input.durationMin + input.bufferMin) * MIN;
        // A few slots per case keep the run short; `pick` varies which.
        for (let k = 0; k < Math.min(4, slots.length); k++) {
          const slot = slots[(pick + k * 7) % slots.length];
          if (!slot) continue;
          checked++;
          expect(slot.quantity).toBeGreaterThanOrEqual(1);
          expect(slot.quantity).toBeLessThanOrEqual(slot.stafferIds.length);
          for (const r of resources) expect(slot.quantity).toBeLessThanOrEqual(r.units.length);
          // Copies whose busy time grows with every booking placed.
          const staffers = input.staffers.map((s) => ({ ...s, busy: [...s.busy] }));
          const units = resources.map((r) => ({
            ...r,
            units: r.units.map((u) => ({ ...u, busy: [...u.busy] })),
          }));
          const service: CartService = {
            durationMin: input.durationMin,
            bufferMin: input.bufferMin,
            // A booking of this slot is made with one of the staffers it offers.
            stafferIds: slot.stafferIds,
            resourceIds: resources.map((r) => r.id),
          };
          const book = () =>
            findCartStart({
              location: input.location,
              services: [service],
              staffers,
              resources: units,
              start: slot.start,
              now: input.now,
            });
          for (let n = 0; n < slot.quantity; n++) {
            const placed = book();
            expect(placed, `booking ${n + 1} of ${slot.quantity}`).not.toBeNull();
            const [a] = placed ?? [];
            if (!a) throw new Error("no assignment");
            const held: BusyInterval = { start: a.start, end: a.start + need, kind: "booking" };
            staffers.find((s) => s.id === a.stafferId)?.busy.push(held);
            expect(a.unitIds).toHaveLength(units.length);
            a.unitIds.forEach((id, i) => units[i]?.units.find((u) => u.id === id)?.busy.push(held));
          }
          expect(book(), "one booking more than the quantity").toBeNull();
        }
      }),
      { numRuns: 150 },
    );
    expect(checked).toBeGreaterThan(100);
  });

  it("searching [a..c] whole equals searching [a..b] and [b+1..c]", () => {
    fc.assert(
      fc.property(arbCase, fc.nat(), (input, cut) => {
        const dates = localDateRange(input.fromDate, input.toDate);
        fc.pre(dates.length > 1);
        const b = cut % (dates.length - 1);
        const whole = searchSlots(input);
        const split = [
          ...searchSlots({ ...input, toDate: dates[b] as string }),
          ...searchSlots({ ...input, fromDate: dates[b + 1] as string }),
        ];
        expect(split).toEqual(whole);
      }),
      { numRuns: 150 },
    );
  });

  it("staffer-only inputs give exactly the pre-resources engine's slots, quantity = free staffers", () => {
    fc.assert(
      fc.property(arbCase, (withResources) => {
        const input = { ...withResources, resources: undefined };
        const days = searchSlots(input);
        expect(legacyShape(days)).toEqual(legacySearchSlots(input));
        for (const slot of days.flatMap((d) => d.slots))
          expect(slot.quantity).toBe(slot.stafferIds.length);
      }),
      { numRuns: 200 },
    );
  });

  it("a resource with at least as many never-busy units as staffers changes nothing", () => {
    fc.assert(
      fc.property(arbCase, fc.integer({ min: 0, max: 3 }), (withResources, spare) => {
        const input = { ...withResources, resources: undefined };
        const roomy: ResourceInput = {
          id: "roomy",
          units: Array.from({ length: input.staffers.length + spare }, (_, i) => ({
            id: `roomy-${i}`,
            busy: [],
          })),
        };
        expect(searchSlots({ ...input, resources: [roomy] })).toEqual(searchSlots(input));
      }),
      { numRuns: 150 },
    );
  });

  it("staffer-only carts are placed exactly as the pre-resources engine placed them; a never-busy resource only adds its unit", () => {
    let placedRuns = 0;
    fc.assert(
      fc.property(
        arbCase,
        fc.array(fc.integer({ min: 5, max: 90 }), { minLength: 1, maxLength: 4 }),
        fc.nat(),
        (input, durations, pick) => {
          const starts = searchSlots({ ...input, resources: undefined }).flatMap((d) =>
            d.slots.map((s) => s.start),
          );
          fc.pre(starts.length > 0);
          // On an offered start, or 7 minutes off the grid (carts take any start).
          const start = (starts[pick % starts.length] as number) + (pick % 2) * 7 * MIN;
          const services = durations.map((d, i) => ({
            durationMin: d,
            bufferMin: i % 2 === 0 ? 5 : 0,
            stafferIds: input.staffers.map((s) => s.id).slice(pick % 2),
          }));
          const args = {
            location: input.location,
            services,
            staffers: input.staffers,
            start,
            now: input.now,
          };
          const old = legacyFindCartStart(args);
          const now = findCartStart(args);
          expect(now?.map(({ unitIds: _, ...a }) => a) ?? null).toEqual(old);
          expect(now?.every((a) => a.unitIds.length === 0) ?? true).toBe(true);
          if (old) placedRuns++;
          const withRoom = findCartStart({
            ...args,
            services: services.map((s) => ({ ...s, resourceIds: ["room"] })),
            resources: [{ id: "room", units: [{ id: "room-1", busy: [] }] }],
          });
          expect(withRoom).toEqual(now?.map((a) => ({ ...a, unitIds: ["room-1"] })) ?? null);
        },
      ),
      { numRuns: 200 },
    );
    expect(placedRuns).toBeGreaterThan(20);
  });
});
