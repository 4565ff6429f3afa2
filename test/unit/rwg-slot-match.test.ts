import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { instantToLocalDate } from "../../src/calendar/rules";
import {
  type EngineSlot,
  HORIZON_DAYS,
  MAX_SPAN_DAYS,
  matchSlot,
  readWindow,
  searchable,
  searchesOf,
  type SlotAsk,
} from "../../src/reserve-with-google/rules/slot-match";

const MIN = 60_000;
const DAY = 86_400_000;
const BASE = Date.parse("2030-03-04T00:00:00Z");
const zones = [
  "Europe/Berlin",
  "Pacific/Kiritimati",
  "Pacific/Pago_Pago",
  "America/St_Johns",
  "UTC",
];

/** An engine's day: distinct starts on a grid, in start order, each with a quantity ≥ 1. */
const arbSlots = fc
  .uniqueArray(fc.integer({ min: 0, max: 96 }), { maxLength: 60 })
  .chain((steps) =>
    fc.tuple(
      fc.constant([...steps].sort((a, b) => a - b)),
      fc.array(fc.integer({ min: 1, max: 12 }), {
        minLength: steps.length,
        maxLength: steps.length,
      }),
    ),
  )
  .map(([steps, qs]): EngineSlot[] =>
    steps.map((s, i) => ({ start: BASE + s * 15 * MIN, quantity: qs[i] ?? 1 })),
  );

const arbDuration = fc.integer({ min: 5, max: 240 });

describe("which engine slot Google's slot is", () => {
  it("is the listed start's quantity when the duration is the service's, else 0", () => {
    fc.assert(
      fc.property(
        arbSlots,
        arbDuration,
        fc.integer({ min: -10, max: 24 * 60 + 10 }),
        (slots, duration, minute) => {
          const startSec = (BASE + minute * MIN) / 1000;
          const listed = slots.find((s) => s.start === startSec * 1000);
          expect(matchSlot(slots, { startSec, durationSec: duration * 60 }, duration)).toBe(
            listed?.quantity ?? 0,
          );
        },
      ),
    );
  });

  it("finds every listed slot, and none under another duration", () => {
    fc.assert(
      fc.property(
        arbSlots,
        arbDuration,
        fc.integer({ min: 0, max: 24 * 3600 }),
        (slots, d, other) => {
          fc.pre(other !== d * 60);
          for (const s of slots) {
            const startSec = s.start / 1000;
            expect(matchSlot(slots, { startSec, durationSec: d * 60 }, d)).toBe(s.quantity);
            expect(matchSlot(slots, { startSec, durationSec: other }, d)).toBe(0);
          }
        },
      ),
    );
  });

  it("searches only starts from now up to the horizon", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2e12 }),
        fc.integer({ min: -5e11, max: 5e11 }),
        (now, offset) => {
          const startSec = Math.floor((now + offset) / 1000);
          const start = startSec * 1000;
          expect(searchable({ startSec }, now)).toBe(
            start >= now && start <= now + HORIZON_DAYS * DAY,
          );
        },
      ),
    );
  });
});

describe("the days one lookup reads", () => {
  it("cover every start's local date in any zone, or refuse a span over the bound", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 80 * 24 * 60 }), { minLength: 1, maxLength: 30 }),
        fc.constantFrom(...zones),
        (minutes, zone) => {
          const starts = minutes.map((m) => (BASE + m * MIN) / 1000);
          const window = readWindow(starts, 0);
          const utcDay = (s: number) => Math.floor((s * 1000) / DAY);
          const span = Math.max(...starts.map(utcDay)) - Math.min(...starts.map(utcDay));
          if (span > MAX_SPAN_DAYS) {
            expect(window).toBeNull();
            return;
          }
          expect(window).not.toBeNull();
          for (const s of starts) {
            const local = instantToLocalDate(s * 1000, zone);
            expect(local >= (window?.fromDate ?? "")).toBe(true);
            expect(local <= (window?.toDate ?? "")).toBe(true);
          }
        },
      ),
    );
  });

  it("reads the day of now when nothing is searched", () => {
    expect(readWindow([], BASE + 5 * 3_600_000)).toEqual({
      fromDate: "2030-03-03",
      toDate: "2030-03-05",
    });
  });

  it("answers each ask by exactly one search of its service, staffer and local date, in order", () => {
    const arbAsk = fc.record({
      serviceId: fc.constantFrom("a", "b"),
      staffId: fc.constantFrom("", "x", "y"),
      startSec: fc.integer({ min: 0, max: 5 * 24 * 4 }).map((q) => (BASE + q * 15 * MIN) / 1000),
      durationSec: fc.constant(2700),
    });
    fc.assert(
      fc.property(fc.array(arbAsk, { maxLength: 50 }), fc.constantFrom(...zones), (asks, zone) => {
        const localDate = (ms: number) => instantToLocalDate(ms, zone);
        const searches = searchesOf<SlotAsk>(asks, localDate);
        expect(searches.flatMap((s) => s.asks)).toHaveLength(asks.length);
        const keys = new Set(searches.map((s) => `${s.serviceId}|${s.staffId}|${s.date}`));
        expect(keys.size).toBe(searches.length);
        for (const s of searches) {
          for (const a of s.asks) {
            expect([a.serviceId, a.staffId, localDate(a.startSec * 1000)]).toEqual([
              s.serviceId,
              s.staffId,
              s.date,
            ]);
          }
          // Within a search, the asks keep the order they were asked in.
          const at = s.asks.map((a) => (asks as SlotAsk[]).indexOf(a));
          expect(at).toEqual([...at].sort((x, y) => x - y));
        }
      }),
    );
  });
});
