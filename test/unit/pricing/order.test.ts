import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  NOTHING_PAID,
  type OrderLine,
  type OrderTerms,
  orderInvoice,
  type PromocodeRule,
  termsRefusals,
} from "../../../src/pos/rules";

const good = (unitPrice: number, quantity = 1, taxRateBp: number | null = null): OrderLine => ({
  kind: "good",
  unitPrice,
  catalogPrice: unitPrice,
  quantity,
  taxName: taxRateBp === null ? null : "VAT",
  taxRateBp,
});
const terms = (over: Partial<OrderTerms> = {}): OrderTerms => ({
  discountMode: null,
  discountAmount: 0,
  discountPercent: null,
  promocode: null,
  promocodeDiscountAmount: null,
  ...over,
});

/** What create does: price with the live code, then freeze its discount on the order. */
function freeze(lines: OrderLine[], t: OrderTerms, rule: PromocodeRule | null): OrderTerms {
  const priced = orderInvoice(lines, t, NOTHING_PAID, rule);
  return {
    ...t,
    promocode: rule?.code ?? null,
    promocodeDiscountAmount: rule ? priced.promocode_discount_amount : t.promocodeDiscountAmount,
  };
}

describe("orderInvoice worked examples", () => {
  it("percent discount then promocode: 3 × 1 250 = 3 750, −10 % = 375, then 5 % of 3 375 = 168.75 → 169", () => {
    const lines = [good(1250, 3)];
    const inv = orderInvoice(
      lines,
      terms({ discountMode: "percent", discountPercent: 10 }),
      NOTHING_PAID,
      { code: "FIVE", percent: 5, amount: null },
    );
    expect(inv).toMatchObject({
      base_amount: 3750,
      discount_amount: -375,
      promocode: "FIVE",
      promocode_discount_amount: 169,
      subtotal: 3206,
      total: 3206,
      amount_due: 3206,
    });
  });

  it("a frozen promocode keeps its amount when the code's rule is gone", () => {
    const lines = [good(1000, 2, 2000)];
    const rule = { code: "TEN", percent: 10, amount: null };
    const frozen = freeze(lines, terms(), rule);
    expect(frozen.promocodeDiscountAmount).toBe(200);
    // Tax after discounts: 20 % of 1 800 = 360.
    expect(orderInvoice(lines, frozen, NOTHING_PAID).total).toBe(2160);
  });

  it("paying in full leaves nothing due and reports the payment signed", () => {
    const lines = [good(899)];
    const inv = orderInvoice(lines, terms(), { account: 899, voucher: 0 });
    expect(inv).toMatchObject({ amount_due: 0, amount_paid: 899, account_paid_amount: -899 });
  });

  it("refuses a fixed discount over the base and a promocode amount over what is left", () => {
    const lines = [good(1000)];
    const about = (t: OrderTerms) => termsRefusals(lines, t).map((p) => p.about.is);
    expect(about(terms({ discountMode: "fixed", discountAmount: 1001 }))).toEqual(["discount"]);
    expect(
      about(
        terms({
          discountMode: "percent",
          discountPercent: 50,
          promocode: "X",
          promocodeDiscountAmount: 501,
        }),
      ),
    ).toEqual(["promocode discount"]);
    expect(
      about(
        terms({
          discountMode: "percent",
          discountPercent: 50,
          promocode: "X",
          promocodeDiscountAmount: 500,
        }),
      ),
    ).toEqual([]);
  });
});

const arbLine: fc.Arbitrary<OrderLine> = fc.record({
  kind: fc.constantFrom("good" as const, "service" as const, "voucher" as const),
  unitPrice: fc.integer({ min: 0, max: 500_000 }),
  catalogPrice: fc.integer({ min: 0, max: 500_000 }),
  quantity: fc.integer({ min: 1, max: 20 }),
  taxName: fc.constant("VAT"),
  taxRateBp: fc.option(fc.integer({ min: 0, max: 2500 }), { nil: null }),
});
const arbTerms: fc.Arbitrary<OrderTerms> = fc.oneof(
  fc.record({
    discountMode: fc.constant("fixed" as const),
    discountAmount: fc.integer({ min: 0, max: 200_000 }),
    discountPercent: fc.constant(null),
    promocode: fc.constant(null),
    promocodeDiscountAmount: fc.constant(null),
  }),
  fc.record({
    discountMode: fc.constant("percent" as const),
    discountAmount: fc.constant(0),
    discountPercent: fc.integer({ min: 0, max: 100 }),
    promocode: fc.constant(null),
    promocodeDiscountAmount: fc.constant(null),
  }),
  fc.constant(terms()),
);
const arbRule = fc.option(
  fc.oneof(
    fc.record({
      code: fc.constant("P"),
      percent: fc.integer({ min: 0, max: 100 }),
      amount: fc.constant(null),
    }),
    fc.record({
      code: fc.constant("A"),
      percent: fc.constant(null),
      amount: fc.integer({ min: 0, max: 100_000 }),
    }),
  ),
  { nil: null },
);

describe("orderInvoice properties", () => {
  it("calculate == create == pay: the frozen order prices exactly as the preview", () => {
    fc.assert(
      fc.property(
        fc.array(arbLine, { minLength: 1, maxLength: 8 }),
        arbTerms,
        arbRule,
        (lines, t, rule) => {
          fc.pre(termsRefusals(lines, t).length === 0);
          const preview = orderInvoice(lines, t, NOTHING_PAID, rule);
          const stored = freeze(lines, t, rule);
          const created = orderInvoice(lines, stored, NOTHING_PAID);
          expect(created).toEqual(preview);
          // Paying settles what was due; the total does not move.
          const paid = orderInvoice(lines, stored, { account: created.amount_due, voucher: 0 });
          expect(paid.total).toBe(preview.total);
          expect(paid.amount_due).toBe(0);
          expect(paid.account_paid_amount).toBe(-preview.total + 0);
        },
      ),
    );
  });

  it("total = subtotal + taxes and is never negative", () => {
    fc.assert(
      fc.property(fc.array(arbLine, { maxLength: 8 }), arbTerms, arbRule, (lines, t, rule) => {
        const inv = orderInvoice(lines, t, NOTHING_PAID, rule);
        expect(inv.total).toBe(inv.subtotal + inv.taxes.reduce((a, x) => a + x.amount, 0));
        expect(inv.total).toBeGreaterThanOrEqual(0);
        expect(inv.subtotal).toBeGreaterThanOrEqual(0);
      }),
    );
  });
});
