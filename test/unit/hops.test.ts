import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HopCounter } from "../../src/platform/hops";

describe("HopCounter", () => {
  it("counts calls in flight together once, and each later call again", () => {
    const hops = new HopCounter();
    const a = hops.start(0);
    const b = hops.start(1); // alongside a: same hop
    a(10);
    const c = hops.start(11); // b still in flight: same hop
    b(12);
    c(20);
    expect(hops.hops).toBe(1);
    expect(hops.durationMs).toBe(20);
    hops.start(30)(35);
    expect(hops.hops).toBe(2);
    expect(hops.durationMs).toBe(25);
  });

  it("ignores a second finish of the same call", () => {
    const hops = new HopCounter();
    const a = hops.start(0);
    const b = hops.start(0);
    a(1);
    a(2);
    expect(hops.hops).toBe(1);
    b(3);
    hops.start(4)(5);
    expect(hops.hops).toBe(2);
  });

  it("equals the number of maximal overlapping groups of intervals", () => {
    const interval = fc
      .tuple(fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 1, max: 100 }))
      .map(([start, length]) => ({ start, end: start + length }));
    fc.assert(
      fc.property(fc.array(interval, { minLength: 1, maxLength: 30 }), (intervals) => {
        const events = intervals
          .flatMap((iv, i) => [
            { at: iv.start, kind: 1, i },
            { at: iv.end, kind: 0, i },
          ])
          // Ends before starts at the same instant: touching calls are sequential.
          .sort((x, y) => x.at - y.at || x.kind - y.kind);
        const hops = new HopCounter();
        const finish = new Map<number, (end?: number) => void>();
        for (const e of events) {
          if (e.kind === 1) finish.set(e.i, hops.start(e.at));
          else finish.get(e.i)?.(e.at);
        }
        const sorted = [...intervals].sort((x, y) => x.start - y.start);
        let groups = 0;
        let reach = -Infinity;
        for (const iv of sorted) {
          if (iv.start >= reach) groups++;
          reach = Math.max(reach, iv.end);
        }
        expect(hops.hops).toBe(groups);
      }),
    );
  });
});
