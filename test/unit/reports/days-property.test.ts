import fc from "fast-check";
import { Temporal } from "temporal-polyfill";
import { describe, expect, it } from "vitest";
import { zoneOffsets } from "../../../src/catalogue/rules/zone-offsets";
import { dayOf, dayOfDate, dayStart } from "../../../src/reports/rules/days";
import { splitAtMidnights } from "../../../src/reports/rules/midnight-split";

const ZONES = [
  "Asia/Kolkata",
  "America/New_York",
  "Australia/Lord_Howe",
  "Europe/London",
  "Pacific/Chatham",
  "America/St_Johns",
  "UTC",
] as const;
const offsetsOf = new Map(ZONES.map((z) => [z, zoneOffsets(z)]));
const offsets = (zone: string) => offsetsOf.get(zone as (typeof ZONES)[number]) ?? [];

// 2000 … 2060, where bookings live.
const instant = fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2060, 0, 1) });
const zone = fc.constantFrom(...ZONES);

const localDate = (ms: number, z: string) =>
  Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO(z).toPlainDate().toString();

describe("a location's day", () => {
  it("dayOf is Temporal's local date of the instant", () => {
    fc.assert(
      fc.property(instant, zone, (ms, z) => {
        expect(dayOf(ms, offsets(z))).toBe(dayOfDate(localDate(ms, z)));
      }),
      { numRuns: 2000 },
    );
  });

  it("dayStart is the first instant of the local date (a skipped midnight: when the clock jumps past it)", () => {
    fc.assert(
      fc.property(instant, zone, (ms, z) => {
        const day = dayOf(ms, offsets(z));
        const start = dayStart(day, offsets(z));
        const date = Temporal.PlainDate.from(localDate(ms, z));
        expect(start).toBe(date.toZonedDateTime({ timeZone: z }).epochMilliseconds);
        expect(dayOf(start, offsets(z))).toBe(day);
        expect(dayOf(start - 1, offsets(z))).toBe(day - 1);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("an entry split at the location's midnights", () => {
  const entry = fc
    .tuple(instant, fc.integer({ min: 1, max: 5 * 86_400_000 }))
    .map(([start, length]) => ({ start, end: start + length }));

  it("pieces sum to the entry's length, one per local day it touches, in order", () => {
    fc.assert(
      fc.property(entry, zone, ({ start, end }, z) => {
        const pieces = splitAtMidnights(start, end, offsets(z));
        expect(pieces.reduce((a, p) => a + p.ms, 0)).toBe(end - start);
        expect(pieces[0]?.day).toBe(dayOf(start, offsets(z)));
        expect(pieces.at(-1)?.day).toBe(dayOf(end - 1, offsets(z)));
        pieces.forEach((p, i) => i > 0 && expect(p.day).toBe((pieces[i - 1]?.day ?? 0) + 1));
      }),
      { numRuns: 2000 },
    );
  });

  it("a piece is the time of the entry on that local date (Temporal)", () => {
    fc.assert(
      fc.property(entry, zone, ({ start, end }, z) => {
        for (const p of splitAtMidnights(start, end, offsets(z))) {
          const date = Temporal.PlainDate.from(
            new Date(p.day * 86_400_000).toISOString().slice(0, 10),
          );
          const from = date.toZonedDateTime({ timeZone: z }).epochMilliseconds;
          const to = date.add({ days: 1 }).toZonedDateTime({ timeZone: z }).epochMilliseconds;
          expect(p.ms).toBe(Math.max(0, Math.min(end, to) - Math.max(start, from)));
        }
      }),
      { numRuns: 1000 },
    );
  });

  it("an empty or reversed entry has no pieces", () => {
    expect(splitAtMidnights(1000, 1000, offsets("UTC"))).toEqual([]);
    expect(splitAtMidnights(2000, 1000, offsets("UTC"))).toEqual([]);
  });
});
