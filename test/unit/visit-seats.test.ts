import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PUBLIC_VISIT, visitSeatProblems } from "../../src/platform/rules/public-visit";

describe("a publishable request's seats", () => {
  it("allows up to the bound over all items and reports the quantity that passes it", () => {
    const items = [
      { services: [{ quantity: 4 }, {}] },
      { services: [{ quantity: 6 }, { quantity: 1 }] },
    ];
    expect(visitSeatProblems(items.slice(0, 1), "A booking books")).toEqual([]);
    // 4 + 1 (a service without quantity is one seat) + 6 = 11: the third passes the bound.
    expect(visitSeatProblems(items, "A booking books")).toEqual([
      {
        about: { is: "quantity", item: 1, service: 0 },
        messages: [`A booking books at most ${PUBLIC_VISIT.seats} seats in all.`],
      },
    ]);
  });

  it("refuses exactly when the seats asked (one without quantity) pass the bound (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.option(fc.integer({ min: 1, max: 100 }), { nil: undefined })), {
          maxLength: 10,
        }),
        (raw) => {
          const items = raw.map((q) => ({ services: q.map((quantity) => ({ quantity })) }));
          const sum = raw.flat().reduce<number>((n, q) => n + (q ?? 1), 0);
          // Too many services is the shape bound's refusal, not this one's.
          const services = raw.flat().length;
          expect(visitSeatProblems(items, "x").length > 0).toBe(
            services <= PUBLIC_VISIT.services && sum > PUBLIC_VISIT.seats,
          );
        },
      ),
    );
  });
});
