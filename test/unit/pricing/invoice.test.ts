import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  allocate,
  type PricingInput,
  priceInvoice,
  promocodeIsUsable,
} from "../../../src/pos/rules";

const line = (unitPrice: number, quantity = 1, rateBp: number | null = null) => ({
  kind: "good" as const,
  unitPrice,
  catalogPrice: unitPrice,
  quantity,
  tax: rateBp === null ? null : { name: `VAT ${rateBp / 100}%`, rateBp },
});
const input = (over: Partial<PricingInput>): PricingInput => ({
  lines: [],
  discount: null,
  promocode: null,
  promocodeDiscountAmount: null,
  paid: { account: 0, voucher: 0 },
  ...over,
});

describe("priceInvoice worked examples", () => {
  it("goods only: 2 × 1 250 + 1 × 990 = 3 490", () => {
    const inv = priceInvoice(input({ lines: [line(1250, 2), line(990)] }));
    expect(inv).toEqual({
      base_amount: 3490,
      discount_amount: 0,
      promocode: null,
      promocode_discount_amount: 0,
      subtotal: 3490,
      taxes: [],
      total: 3490,
      base_price: 3490,
      amount_due: 3490,
      voucher_paid_amount: 0,
      account_paid_amount: 0,
      amount_paid: 0,
    });
    expect(Object.is(inv.discount_amount, -0)).toBe(false);
  });

  it("15 % of 1 003 is 150.45 → 150; 25 % of 1 002 is 250.5 → 251 (half-up)", () => {
    expect(
      priceInvoice(input({ lines: [line(1003)], discount: { mode: "percent", percent: 15 } }))
        .discount_amount,
    ).toBe(-150);
    expect(
      priceInvoice(input({ lines: [line(1002)], discount: { mode: "percent", percent: 25 } }))
        .discount_amount,
    ).toBe(-251);
  });

  it("a fixed discount larger than the base is capped at the base", () => {
    const inv = priceInvoice(
      input({ lines: [line(500)], discount: { mode: "fixed", amount: 900 } }),
    );
    expect(inv).toMatchObject({ discount_amount: -500, subtotal: 0, total: 0, amount_due: 0 });
  });

  it("a promocode percent applies after the manual discount: 10 000 − 1 000 − 10 % of 9 000 = 8 100", () => {
    const inv = priceInvoice(
      input({
        lines: [line(10_000)],
        discount: { mode: "fixed", amount: 1000 },
        promocode: { code: "SPRING", percent: 10, amount: null },
      }),
    );
    expect(inv).toMatchObject({
      promocode: "SPRING",
      promocode_discount_amount: 900,
      subtotal: 8100,
    });
  });

  it("an explicit promocode amount wins over the code's own, still capped", () => {
    const inv = priceInvoice(
      input({
        lines: [line(1000)],
        promocode: { code: "X", percent: 50, amount: null },
        promocodeDiscountAmount: 5000,
      }),
    );
    expect(inv.promocode_discount_amount).toBe(1000);
    expect(inv.subtotal).toBe(0);
  });

  it("spreads a discount over two tax rates: 2 × 1 000 at 20 % + 500 at 7 %, 10 % off", () => {
    // Reduction 250 split 200 / 50 → taxes 20 % of 1 800 = 360 and 7 % of 450 = 31.5 → 32.
    const inv = priceInvoice(
      input({
        lines: [line(1000, 2, 2000), line(500, 1, 700)],
        discount: { mode: "percent", percent: 10 },
      }),
    );
    expect(inv.taxes).toEqual([
      { name: "VAT 20%", rate_bp: 2000, amount: 360 },
      { name: "VAT 7%", rate_bp: 700, amount: 32 },
    ]);
    expect(inv).toMatchObject({ subtotal: 2250, total: 2642 });
  });

  it("reports payments signed and the amount still due", () => {
    const inv = priceInvoice(input({ lines: [line(5000)], paid: { account: 3000, voucher: 500 } }));
    expect(inv).toMatchObject({
      account_paid_amount: -3000,
      voucher_paid_amount: 500,
      amount_paid: 3500,
      amount_due: 1500,
    });
  });

  it("largest remainder: 100 over 1/1/1 gives 34/33/33", () => {
    expect(allocate(100, [1, 1, 1])).toEqual([34, 33, 33]);
  });

  it("counts promocode uses without the excluded bookings", () => {
    expect(promocodeIsUsable({ maxUses: 2, usedCount: 2, usesByExcludedBookings: 0 })).toBe(false);
    expect(promocodeIsUsable({ maxUses: 2, usedCount: 2, usesByExcludedBookings: 1 })).toBe(true);
    expect(promocodeIsUsable({ maxUses: null, usedCount: 99, usesByExcludedBookings: 0 })).toBe(
      true,
    );
  });
});

const arbLine = fc.record({
  kind: fc.constantFrom("good" as const, "service" as const, "voucher" as const),
  unitPrice: fc.integer({ min: 0, max: 1_000_000 }),
  catalogPrice: fc.integer({ min: 0, max: 1_000_000 }),
  quantity: fc.integer({ min: 1, max: 50 }),
  tax: fc.option(
    fc.record({ name: fc.constantFrom("VAT", "GST"), rateBp: fc.integer({ min: 0, max: 3000 }) }),
    { nil: null },
  ),
});
const arbInput: fc.Arbitrary<PricingInput> = fc.record({
  lines: fc.array(arbLine, { maxLength: 8 }),
  discount: fc.option(
    fc.oneof(
      fc.record({
        mode: fc.constant("fixed" as const),
        amount: fc.integer({ min: 0, max: 5_000_000 }),
      }),
      fc.record({
        mode: fc.constant("percent" as const),
        percent: fc.integer({ min: 0, max: 100 }),
      }),
    ),
    { nil: null },
  ),
  promocode: fc.option(
    fc.record({
      code: fc.constant("CODE"),
      percent: fc.option(fc.integer({ min: 0, max: 100 }), { nil: null }),
      amount: fc.option(fc.integer({ min: 0, max: 100_000 }), { nil: null }),
    }),
    { nil: null },
  ),
  promocodeDiscountAmount: fc.option(fc.integer({ min: 0, max: 100_000 }), { nil: null }),
  paid: fc.record({
    account: fc.integer({ min: 0, max: 1_000_000 }),
    voucher: fc.integer({ min: 0, max: 1_000_000 }),
  }),
});

describe("priceInvoice properties", () => {
  it("total = subtotal + taxes; subtotal = base + discount(signed) − promocode; nothing negative but the signed two", () => {
    fc.assert(
      fc.property(arbInput, (i) => {
        const inv = priceInvoice(i);
        expect(inv.total).toBe(inv.subtotal + inv.taxes.reduce((a, t) => a + t.amount, 0));
        expect(inv.subtotal).toBe(
          inv.base_amount + inv.discount_amount - inv.promocode_discount_amount,
        );
        for (const [k, v] of Object.entries(inv)) {
          if (typeof v === "number") {
            expect(Object.is(v, -0), k).toBe(false);
            if (k !== "discount_amount" && k !== "account_paid_amount")
              expect(v, k).toBeGreaterThanOrEqual(0);
          }
        }
        expect(inv.amount_due).toBe(Math.max(0, inv.total - inv.amount_paid));
      }),
    );
  });

  it("is deterministic and its totals do not depend on line order", () => {
    fc.assert(
      fc.property(arbInput, (i) => {
        expect(priceInvoice(i)).toEqual(priceInvoice(structuredClone(i)));
        const reversed = priceInvoice({ ...i, lines: [...i.lines].reverse() });
        const inv = priceInvoice(i);
        expect(reversed.subtotal).toBe(inv.subtotal);
        expect(reversed.base_amount).toBe(inv.base_amount);
      }),
    );
  });

  it("allocations always sum exactly to the total and never exceed a weight's share by a unit", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.array(fc.integer({ min: 0, max: 1_000_000 }), { minLength: 1, maxLength: 10 }),
        (total, weights) => {
          const parts = allocate(total, weights);
          const sum = weights.reduce((a, b) => a + b, 0);
          expect(parts.reduce((a, b) => a + b, 0)).toBe(sum === 0 ? 0 : total);
          parts.forEach((p, i) => {
            if (sum > 0) expect(Math.abs(p - (total * (weights[i] ?? 0)) / sum)).toBeLessThan(1);
          });
        },
      ),
    );
  });
});
