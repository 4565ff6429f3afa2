import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CalendarBudget, CLAIMS_PER_CALENDAR, MAX_CALENDAR_CALLS } from "../../src/calendar/budget";
import { stableIds } from "../../src/calendar/planning/plan-ids";
import { HopCounter } from "../../src/platform/hops";

describe("CalendarBudget", () => {
  it("allows a calendar two claims, never a third", () => {
    const budget = new CalendarBudget();
    expect(budget.fits(["a", "b"], 0)).toBe(true);
    budget.claimed("a");
    budget.claimed("b");
    expect(budget.fits(["a"], 2)).toBe(true);
    budget.claimed("a");
    expect(budget.fits(["a"], 2)).toBe(false);
    expect(budget.fits(["b", "c"], 2)).toBe(true);
    expect(budget.calendars).toBe(2);
  });

  it("reserves an ending call for every claim: 50 calendars fit, 51 do not", () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => `c${i}`);
    expect(new CalendarBudget().fits(ids(50), 0)).toBe(true);
    expect(new CalendarBudget().fits(ids(51), 0)).toBe(false);
  });

  it("whatever a write asks, granted or refused, its calls stay within 100 and 4 × its calendars", () => {
    // A write that asks again and again for passes over random calendars, as far as the budget lets
    // it: every claim may be granted (then it owes one ending call) or refused.
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(fc.array(fc.integer({ min: 0, max: 60 }), { maxLength: 30 }), fc.boolean()),
        ),
        (passes) => {
          const budget = new CalendarBudget();
          const claims = new Map<string, number>();
          let holding = 0;
          for (const [pass, granted] of passes) {
            const ids = [...new Set(pass.map((n) => `c${n}`))];
            if (!budget.fits(ids, holding)) continue;
            for (const id of ids) {
              budget.claimed(id);
              claims.set(id, (claims.get(id) ?? 0) + 1);
            }
            if (granted) holding += ids.length;
            // Sometimes the write gives back all it holds (a release) before the next pass.
            if (!granted && holding > 0) {
              budget.ended(holding);
              holding = 0;
            }
          }
          budget.ended(holding); // the confirm or release that ends the write
          expect(budget.calls).toBeLessThanOrEqual(MAX_CALENDAR_CALLS);
          expect(budget.calls).toBeLessThanOrEqual(4 * budget.calendars);
          for (const n of claims.values()) expect(n).toBeLessThanOrEqual(CLAIMS_PER_CALENDAR);
        },
      ),
    );
  });
});

describe("stableIds", () => {
  it("gives the same row the same id in every plan of a write, and different rows different ids", () => {
    const ids = stableIds();
    expect(ids("service 0.1")).toBe(ids("service 0.1"));
    expect(ids("service 0.1")).not.toBe(ids("service 0.2"));
    expect(stableIds()("service 0.1")).not.toBe(ids("service 0.1"));
  });
});

describe("HopCounter.calls", () => {
  it("counts every call, in flight together or not", () => {
    const hops = new HopCounter();
    const a = hops.start(0);
    const b = hops.start(1);
    a(2);
    b(3);
    hops.start(4)(5);
    expect([hops.hops, hops.calls]).toEqual([2, 3]);
  });
});
