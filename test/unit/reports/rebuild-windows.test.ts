import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { halves, rebuildWindows } from "../../../src/reports/rules/rebuild-windows";

describe("rebuild windows", () => {
  it("a year is 11 windows of 31 days and a last one of the 24 left", () => {
    const windows = rebuildWindows({ first: 20_000, last: 20_364 }, []);
    expect(windows).toHaveLength(12);
    expect(windows[0]).toEqual({ first: 20_000, last: 20_030 });
    expect(windows.at(-1)).toEqual({ first: 20_341, last: 20_364 });
  });

  it("covers every raw day and every rollup day exactly once, no window over the size", () => {
    fc.assert(
      fc.property(
        fc.option(fc.tuple(fc.integer({ min: 0, max: 400 }), fc.integer({ min: 0, max: 400 }))),
        fc.array(fc.integer({ min: -100, max: 600 }), { maxLength: 40 }),
        fc.integer({ min: 1, max: 40 }),
        (pair, rollupDays, size) => {
          const span = pair && { first: Math.min(...pair), last: Math.max(...pair) };
          const windows = rebuildWindows(span, rollupDays, size);
          const seen = new Map<number, number>();
          for (const w of windows) {
            expect(w.last - w.first + 1).toBeGreaterThan(0);
            expect(w.last - w.first + 1).toBeLessThanOrEqual(size);
            for (let d = w.first; d <= w.last; d++) seen.set(d, (seen.get(d) ?? 0) + 1);
          }
          expect([...seen.values()].every((n) => n === 1)).toBe(true);
          const must = [...rollupDays];
          if (span) for (let d = span.first; d <= span.last; d++) must.push(d);
          for (const d of must) expect(seen.get(d)).toBe(1);
          expect(windows.map((w) => w.first)).toEqual(
            [...windows.map((w) => w.first)].sort((a, b) => a - b),
          );
        },
      ),
    );
  });

  it("halves split a window into two that cover it; a one-day window has none", () => {
    expect(halves({ first: 10, last: 40 })).toEqual([
      { first: 10, last: 25 },
      { first: 26, last: 40 },
    ]);
    expect(halves({ first: 7, last: 7 })).toBeNull();
  });
});
