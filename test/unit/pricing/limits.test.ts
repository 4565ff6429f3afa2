import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  accountChangeFits,
  MAX_ACCOUNT_BALANCE,
  MAX_LINES_PER_KIND,
  MAX_ORDER_AMOUNT,
  MAX_ORDER_PAID,
  MAX_ORDER_TOTAL,
  MAX_QUANTITY,
  MAX_TAX_RATE_BP,
  MAX_UNIT_PRICE,
  orderPaymentFits,
} from "../../../src/platform/rules/money";
import { type PricingInput, type PricingLine, priceInvoice } from "../../../src/pos/rules";

const KINDS = ["good", "service", "voucher"] as const;

/** The largest order the request schemas let through: every kind at its line maximum. */
const maxLines = (rateBp: number | null): PricingLine[] =>
  KINDS.flatMap((kind) =>
    Array.from({ length: MAX_LINES_PER_KIND }, () => ({
      kind,
      unitPrice: MAX_UNIT_PRICE,
      catalogPrice: MAX_UNIT_PRICE,
      quantity: MAX_QUANTITY,
      tax: rateBp === null ? null : { name: "VAT", rateBp },
    })),
  );

const input = (over: Partial<PricingInput>): PricingInput => ({
  lines: [],
  discount: null,
  promocode: null,
  promocodeDiscountAmount: null,
  paid: { account: 0, voucher: 0 },
  ...over,
});

/**
 * The invoice total recomputed in BigInt, the reference for exactness. The lines are all
 * equal and every amount here divides evenly by their number, so the discount spreads evenly.
 */
function exactTotal(lines: PricingLine[], percent: number): bigint {
  const base = lines.reduce((a, l) => a + BigInt(l.unitPrice) * BigInt(l.quantity), 0n);
  const discount = (base * BigInt(percent) * 2n + 100n) / 200n; // half-up
  const left = base - discount;
  const perLineNet = left / BigInt(lines.length);
  const rate = lines[0]?.tax?.rateBp ?? 0;
  const perLineTax = (perLineNet * BigInt(rate) * 2n + 10_000n) / 20_000n;
  return left + perLineTax * BigInt(lines.length);
}

describe("money limits", () => {
  it("keep the largest possible order total below 2^53", () => {
    expect(MAX_ORDER_AMOUNT).toBe(3_000_000_000_000_000);
    expect(MAX_ORDER_TOTAL).toBe(6_000_000_000_000_000);
    expect(MAX_ORDER_TOTAL).toBeLessThan(Number.MAX_SAFE_INTEGER);
    expect(Number.isSafeInteger(MAX_ORDER_TOTAL)).toBe(true);
  });

  it("price the largest order exactly, taxes at their maximum", () => {
    const lines = maxLines(MAX_TAX_RATE_BP);
    const inv = priceInvoice(input({ lines }));
    expect(inv.base_amount).toBe(MAX_ORDER_AMOUNT);
    expect(inv.base_price).toBe(MAX_ORDER_AMOUNT);
    expect(inv.taxes).toEqual([
      { name: "VAT", rate_bp: MAX_TAX_RATE_BP, amount: MAX_ORDER_AMOUNT },
    ]);
    expect(inv.total).toBe(MAX_ORDER_TOTAL);
    expect(BigInt(inv.total)).toBe(exactTotal(lines, 0));
  });

  it("stay exact at the maximum for any percent discount and tax rate", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 0, max: MAX_TAX_RATE_BP }),
        (percent, rateBp) => {
          const lines = maxLines(rateBp);
          const inv = priceInvoice(input({ lines, discount: { mode: "percent", percent } }));
          for (const amount of [inv.base_amount, inv.subtotal, inv.total, inv.amount_due])
            expect(Number.isSafeInteger(amount)).toBe(true);
          expect(inv.total).toBeLessThanOrEqual(MAX_ORDER_TOTAL);
          expect(BigInt(inv.total)).toBe(exactTotal(lines, percent));
          const taxSum = inv.taxes.reduce((a, t) => a + BigInt(t.amount), 0n);
          expect(BigInt(inv.total)).toBe(BigInt(inv.subtotal) + taxSum);
          expect(BigInt(inv.subtotal)).toBe(
            BigInt(inv.base_amount) -
              BigInt(-inv.discount_amount) -
              BigInt(inv.promocode_discount_amount),
          );
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("sums over many requests", () => {
  it("one order's payments stop at its largest possible total, below 2^53", () => {
    expect(MAX_ORDER_PAID).toBe(MAX_ORDER_TOTAL);
    expect(orderPaymentFits(2 * MAX_ORDER_AMOUNT - 1, 1)).toBe(true);
    expect(orderPaymentFits(2 * MAX_ORDER_AMOUNT, 1)).toBe(false);
    // Four completes of a cart at the per-request cap: 1.2·10^16, past 2^53.
    expect(orderPaymentFits(3 * MAX_ORDER_AMOUNT, MAX_ORDER_AMOUNT)).toBe(false);
  });

  it("an account moves only within ±(2^53 − 1), decided exactly even past it", () => {
    expect(accountChangeFits(MAX_ACCOUNT_BALANCE - 5000, 5000)).toBe(true);
    expect(accountChangeFits(MAX_ACCOUNT_BALANCE - 4999, 5000)).toBe(false);
    expect(accountChangeFits(-MAX_ACCOUNT_BALANCE + 5000, -5000)).toBe(true);
    expect(accountChangeFits(-MAX_ACCOUNT_BALANCE + 4999, -5000)).toBe(false);
    fc.assert(
      fc.property(
        fc.integer({ min: -MAX_ACCOUNT_BALANCE, max: MAX_ACCOUNT_BALANCE }),
        fc.integer({ min: -MAX_ORDER_TOTAL, max: MAX_ORDER_TOTAL }),
        (balance, change) => {
          const after = BigInt(balance) + BigInt(change);
          expect(accountChangeFits(balance, change)).toBe(
            after <= BigInt(Number.MAX_SAFE_INTEGER) && after >= -BigInt(Number.MAX_SAFE_INTEGER),
          );
        },
      ),
    );
  });
});
