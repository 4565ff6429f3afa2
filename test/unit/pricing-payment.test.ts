import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CODE_ALPHABET,
  codeFromBytes,
  invoiceOf,
  NOTHING_PAID,
  normaliseCode,
  type OrderLine,
  orderInvoice,
  orderTerms,
  splitPayment,
  type VoucherTender,
} from "../../src/pos/rules";

const tender = (code: string, balance: number, asked: number | null = null): VoucherTender => ({
  code,
  balance,
  asked,
});

describe("splitPayment worked examples", () => {
  it("a 5 000 voucher on a 3 000 bill covers it all; the account pays nothing", () => {
    expect(splitPayment(3000, [tender("A", 5000)])).toEqual({
      parts: [{ code: "A", amount: 3000 }],
      voucher: 3000,
      account: 0,
    });
  });

  it("vouchers go first in the order listed, each up to its amount, the account takes the rest", () => {
    expect(splitPayment(10_000, [tender("A", 2000), tender("B", 9000, 3000)])).toEqual({
      parts: [
        { code: "A", amount: 2000 },
        { code: "B", amount: 3000 },
      ],
      voucher: 5000,
      account: 5000,
    });
  });

  it("a voucher the bill no longer needs is left out", () => {
    expect(splitPayment(1000, [tender("A", 1000), tender("B", 500)]).parts).toEqual([
      { code: "A", amount: 1000 },
    ]);
  });

  it("nothing due, nothing paid", () => {
    expect(splitPayment(0, [tender("A", 1000)])).toEqual({ parts: [], voucher: 0, account: 0 });
  });
});

const tenders = fc
  .array(
    fc.record({
      balance: fc.integer({ min: 0, max: 1_000_000 }),
      asked: fc.option(fc.integer({ min: 1, max: 1_000_000 })),
    }),
    { maxLength: 10 },
  )
  .map((ts) => ts.map((t, i) => tender(`V${i}`, t.balance, t.asked)));

describe("splitPayment properties", () => {
  it("the parts and the account add up to what is due; nothing is negative or over a cap", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 5_000_000 }), tenders, (due, ts) => {
        const split = splitPayment(due, ts);
        const sum = split.parts.reduce((a, p) => a + p.amount, 0);
        expect(sum).toBe(split.voucher);
        expect(split.voucher + split.account).toBe(due);
        expect(split.account).toBeGreaterThanOrEqual(0);
        const byCode = new Map(ts.map((t) => [t.code, t]));
        for (const p of split.parts) {
          const t = byCode.get(p.code);
          expect(p.amount).toBeGreaterThan(0);
          expect(p.amount).toBeLessThanOrEqual(t?.balance ?? 0);
          expect(p.amount).toBeLessThanOrEqual(t?.asked ?? Infinity);
        }
        // The account pays only what every voucher, at its cap, could not.
        const capacity = ts.reduce((a, t) => a + Math.min(t.balance, t.asked ?? t.balance), 0);
        expect(split.account).toBe(Math.max(0, due - capacity));
      }),
    );
  });
});

const lines = fc.array(
  fc.record({
    kind: fc.constantFrom("good" as const, "service" as const, "voucher" as const),
    unitPrice: fc.integer({ min: 0, max: 200_000 }),
    quantity: fc.integer({ min: 1, max: 20 }),
    taxRateBp: fc.option(fc.integer({ min: 0, max: 10_000 })),
  }),
  { minLength: 1, maxLength: 8 },
);

describe("paying an invoice with vouchers: calculate == pay", () => {
  it("calculate's preview and the paid order agree, and the paid order owes nothing", () => {
    fc.assert(
      fc.property(
        lines,
        fc.option(fc.integer({ min: 0, max: 100 })),
        tenders,
        (ls, percent, ts) => {
          const orderLines: OrderLine[] = ls.map((l) => ({
            ...l,
            catalogPrice: l.unitPrice,
            taxName: l.taxRateBp === null ? null : "VAT",
          }));
          const terms = orderTerms({
            discountMode: percent === null ? null : "percent",
            discountAmount: null,
            discountPercent: percent,
            promocode: null,
          });
          const unpaid = orderInvoice(orderLines, terms, NOTHING_PAID);
          const split = splitPayment(unpaid.amount_due, ts);

          // calculate: the vouchers' part only; amount_due is what the account would pay.
          const preview = orderInvoice(orderLines, terms, { account: 0, voucher: split.voucher });
          expect(preview.voucher_paid_amount).toBe(split.voucher);
          expect(preview.amount_due).toBe(split.account);

          // pay: the stored order with both parts paid.
          const paid = invoiceOf({
            order: { ...terms, accountPaidAmount: split.account, voucherPaidAmount: split.voucher },
            lines: orderLines,
          });
          expect(paid.total).toBe(unpaid.total);
          expect(paid.amount_due).toBe(0);
          expect(paid.amount_paid).toBe(paid.total);
          expect(paid.voucher_paid_amount + -paid.account_paid_amount).toBe(paid.total);
          for (const n of [paid.voucher_paid_amount, -paid.account_paid_amount, paid.total])
            expect(n).toBeGreaterThanOrEqual(0);
        },
      ),
    );
  });
});

describe("voucher codes", () => {
  it("read as four groups of four from an alphabet without look-alikes", () => {
    const code = codeFromBytes(new Uint8Array(16).fill(0xff));
    expect(code).toBe("ZZZZ-ZZZZ-ZZZZ-ZZZZ");
    expect(CODE_ALPHABET).toHaveLength(32);
    for (const c of "01IO") expect(CODE_ALPHABET).not.toContain(c);
  });

  it("normalise whatever a person types back to the stored form", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 16, maxLength: 16 }), (bytes) => {
        const code = codeFromBytes(bytes);
        expect(code).toMatch(/^[2-9A-HJ-NP-Z]{4}(-[2-9A-HJ-NP-Z]{4}){3}$/);
        expect(normaliseCode(code)).toBe(code);
        expect(normaliseCode(code.toLowerCase().replace(/-/g, " "))).toBe(code);
        expect(normaliseCode(code.replace(/-/g, ""))).toBe(code);
      }),
    );
  });

  it("refuse what cannot be a code", () => {
    expect(normaliseCode("")).toBeNull();
    expect(normaliseCode("ABCD-EFGH-JKLM-NPQ")).toBeNull();
    expect(normaliseCode("ABCD-EFGH-JKLM-NPQ0")).toBeNull();
    expect(normaliseCode("ABCD-EFGH-JKLM-NPQRS")).toBeNull();
  });
});
