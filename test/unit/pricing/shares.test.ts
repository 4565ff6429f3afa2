import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  discountedLines,
  type OrderLine,
  type OrderTerms,
  orderInvoice,
  unitShares,
  voucherValues,
} from "../../../src/pos/rules";
import { MAX_QUANTITY, MAX_UNIT_PRICE } from "../../../src/platform/rules/money";

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

const line = (kind: OrderLine["kind"], unitPrice: number, quantity: number): OrderLine => ({
  kind,
  unitPrice,
  catalogPrice: unitPrice,
  quantity,
  taxName: null,
  taxRateBp: null,
});
const terms = (over: Partial<OrderTerms> = {}): OrderTerms => ({
  discountMode: null,
  discountAmount: 0,
  discountPercent: null,
  promocode: null,
  promocodeDiscountAmount: null,
  ...over,
});

/** 3 × 3 333 and 2 × 1 001 of gift cards, 1 × 1 250 of shampoo: base 13 251. */
const awkward = [line("voucher", 3333, 3), line("voucher", 1001, 2), line("good", 1250, 1)];

describe("what a voucher sold on a discounted order is worth: worked examples", () => {
  it("37 % off: 4 903 spread 3 700 / 741 / 462, then over the units", () => {
    const rule = { code: "P37", percent: 37, amount: null };
    expect(discountedLines([9999, 2002, 1250], 4903)).toEqual([6299, 1261, 788]);
    expect(voucherValues(awkward, terms({ promocode: "P37" }), rule)).toEqual([
      [2100, 2100, 2099],
      [631, 630],
      [],
    ]);
  });

  it("a fixed discount and a frozen promocode amount are one reduction", () => {
    const values = voucherValues(
      awkward,
      terms({
        discountMode: "fixed",
        discountAmount: 1000,
        promocode: "X",
        promocodeDiscountAmount: 779,
      }),
    );
    expect(values).toEqual([[2886, 2886, 2885], [867, 866], []]);
  });

  it("100 % off: every voucher is worth 0; no discount: each is worth its price", () => {
    const all = terms({ discountMode: "percent", discountPercent: 100 });
    expect(voucherValues(awkward, all)).toEqual([[0, 0, 0], [0, 0], []]);
    expect(voucherValues(awkward, terms())).toEqual([[3333, 3333, 3333], [1001, 1001], []]);
  });

  it("splits units the way a till would count them: 100 over 3 is 34, 33, 33", () => {
    expect(unitShares(100, 3)).toEqual([34, 33, 33]);
    expect(unitShares(0, 2)).toEqual([0, 0]);
  });
});

const arbTotals = fc.array(fc.integer({ min: 0, max: MAX_UNIT_PRICE * MAX_QUANTITY }), {
  minLength: 1,
  maxLength: 30,
});
/** Line totals and a reduction of at most their sum (what the pricing ever asks for). */
const arbSplit = arbTotals.chain((totals) =>
  fc.tuple(fc.constant(totals), fc.integer({ min: 0, max: sum(totals) })),
);

describe("discountedLines properties", () => {
  it("the shares sum exactly to the reduction, none negative, none above its line, same every time", () => {
    fc.assert(
      fc.property(arbSplit, ([totals, reduction]) => {
        const left = discountedLines(totals, reduction);
        const shares = totals.map((t, i) => t - (left[i] ?? 0));
        expect(sum(shares)).toBe(reduction);
        shares.forEach((share, i) => {
          expect(share).toBeGreaterThanOrEqual(0);
          expect(share).toBeLessThanOrEqual(totals[i] ?? 0);
          expect(Number.isSafeInteger(share)).toBe(true);
          // Pro rata: within one minor unit of the exact proportion.
          const exact =
            (BigInt(reduction) * BigInt(totals[i] ?? 0) * 2n) / BigInt(sum(totals) || 1);
          expect(Math.abs(share * 2 - Number(exact))).toBeLessThanOrEqual(2);
        });
        expect(discountedLines(totals, reduction)).toEqual(left);
      }),
    );
  });

  it("a bigger line never gets a smaller share", () => {
    fc.assert(
      fc.property(arbSplit, ([totals, reduction]) => {
        const left = discountedLines(totals, reduction);
        const shares = totals.map((t, i) => t - (left[i] ?? 0));
        totals.forEach((a, i) =>
          totals.forEach((b, j) => {
            if (a > b) expect(shares[i] ?? 0).toBeGreaterThanOrEqual(shares[j] ?? 0);
          }),
        );
      }),
    );
  });
});

describe("unitShares properties", () => {
  it("units sum exactly to the line, differ by at most one, earlier units first", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: MAX_UNIT_PRICE * MAX_QUANTITY }),
        fc.integer({ min: 1, max: 200 }),
        (amount, quantity) => {
          const units = unitShares(amount, quantity);
          expect(units).toHaveLength(quantity);
          expect(sum(units)).toBe(amount);
          const floor = Math.floor(amount / quantity);
          units.forEach((u, i) => {
            expect(u === floor || u === floor + 1).toBe(true);
            if (i > 0) expect(u).toBeLessThanOrEqual(units[i - 1] ?? 0);
          });
        },
      ),
    );
  });
});

const arbLine = fc.record({
  kind: fc.constantFrom("good" as const, "service" as const, "voucher" as const),
  unitPrice: fc.integer({ min: 0, max: MAX_UNIT_PRICE }),
  catalogPrice: fc.constant(0),
  quantity: fc.integer({ min: 1, max: 20 }),
  taxName: fc.constant(null),
  taxRateBp: fc.option(fc.integer({ min: 0, max: 3000 }), { nil: null }),
});
const arbTerms: fc.Arbitrary<OrderTerms> = fc.oneof(
  fc.constant(terms()),
  fc
    .integer({ min: 0, max: 100 })
    .map((p) => terms({ discountMode: "percent", discountPercent: p })),
  fc
    .integer({ min: 0, max: 1_000_000 })
    .map((a) => terms({ discountMode: "fixed", discountAmount: a })),
  fc
    .integer({ min: 0, max: 1_000_000 })
    .map((a) => terms({ promocode: "X", promocodeDiscountAmount: a })),
);

describe("voucherValues against the invoice", () => {
  it("no voucher is worth more than its unit price, and all of them never more than the bill", () => {
    fc.assert(
      fc.property(fc.array(arbLine, { minLength: 1, maxLength: 12 }), arbTerms, (lines, t) => {
        // Terms the API would refuse (a fixed discount above the base) are capped by the pricing.
        const values = voucherValues(lines, t);
        const invoice = orderInvoice(lines, t, { account: 0, voucher: 0 });
        expect(values).toHaveLength(lines.length);
        lines.forEach((l, i) => {
          const units = values[i] ?? [];
          expect(units).toHaveLength(l.kind === "voucher" ? l.quantity : 0);
          for (const v of units) {
            expect(v).toBeGreaterThanOrEqual(0);
            expect(v).toBeLessThanOrEqual(l.unitPrice);
          }
        });
        expect(sum(values.flat())).toBeLessThanOrEqual(invoice.subtotal);
        // Without a reduction a voucher is worth exactly its price.
        if (invoice.subtotal === invoice.base_amount)
          lines.forEach((l, i) => (values[i] ?? []).forEach((v) => expect(v).toBe(l.unitPrice)));
        expect(voucherValues(lines, t)).toEqual(values);
      }),
    );
  });
});
