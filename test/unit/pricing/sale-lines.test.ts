import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  bookingOrderInvoice,
  bookingSaleLines,
  invoiceOf,
  posSaleLines,
  type SoldBookedService,
  type SoldOrderLine,
  type StoredOrder,
} from "../../../src/pos/rules";
import { saleEntries, refundEntries } from "../../../src/reports/rules/revenue-entries";

const KINDS = ["good", "service", "voucher", "package"] as const;

const soldLine: fc.Arbitrary<SoldOrderLine> = fc.record({
  kind: fc.constantFrom(...KINDS),
  refId: fc.constantFrom("s1", "s2", "g1"),
  stafferId: fc.option(fc.constantFrom("a", "b"), { nil: null }),
  unitPrice: fc.integer({ min: 0, max: 1_000_000 }),
  catalogPrice: fc.integer({ min: 0, max: 1_000_000 }),
  quantity: fc.integer({ min: 1, max: 20 }),
  taxName: fc.constant("VAT"),
  taxRateBp: fc.option(fc.constantFrom(0, 700, 1900, 2000), { nil: null }),
});

/** An order's terms as a till may store them: a fixed or percent discount, a frozen promocode amount. */
const order: fc.Arbitrary<StoredOrder> = fc.record({
  discountMode: fc.constantFrom("fixed" as const, "percent" as const, null),
  discountAmount: fc.integer({ min: 0, max: 5_000_000 }),
  discountPercent: fc.option(fc.integer({ min: 0, max: 100 }), { nil: null }),
  promocode: fc.option(fc.constant("SPRING"), { nil: null }),
  promocodeDiscountAmount: fc.option(fc.integer({ min: 0, max: 5_000_000 }), { nil: null }),
  accountPaidAmount: fc.integer({ min: 0, max: 1_000 }),
  voucherPaidAmount: fc.integer({ min: 0, max: 1_000 }),
});

const grossOf = (lines: { gross: number }[]) => lines.reduce((a, l) => a + l.gross, 0);
const netOf = (lines: { net: number }[]) => lines.reduce((a, l) => a + l.net, 0);

describe("posSaleLines", () => {
  it("Σ gross − Σ (gross − net) = the invoice's subtotal; each net within its line", () => {
    fc.assert(
      fc.property(order, fc.array(soldLine, { minLength: 0, maxLength: 12 }), (o, lines) => {
        const sale = posSaleLines({ order: o, lines });
        const invoice = invoiceOf({ order: o, lines });
        expect(grossOf(sale)).toBe(invoice.base_amount);
        expect(grossOf(sale) - sale.reduce((a, l) => a + (l.gross - l.net), 0)).toBe(
          invoice.subtotal,
        );
        expect(netOf(sale)).toBe(invoice.subtotal);
        for (const l of sale) {
          expect(l.net).toBeGreaterThanOrEqual(0);
          expect(l.net).toBeLessThanOrEqual(l.gross);
        }
      }),
      { numRuns: 500 },
    );
  });

  it("its entries: every dimension's amounts − discounts = the subtotal; a refund's refunds = the subtotal", () => {
    fc.assert(
      fc.property(order, fc.array(soldLine, { maxLength: 12 }), (o, lines) => {
        const sale = posSaleLines({ order: o, lines });
        const { subtotal } = invoiceOf({ order: o, lines });
        const sums = { day: 0, staffer: 0, service: 0, payment_method: 0 };
        const refunds = { ...sums };
        for (const e of saleEntries(sale, "cash_account")) {
          const s = e.sums;
          sums[e.dim] +=
            (s.services_amount ?? 0) +
            (s.goods_amount ?? 0) +
            (s.vouchers_sold ?? 0) +
            (s.packages_sold ?? 0) -
            (s.discounts ?? 0);
        }
        for (const e of refundEntries(sale, "cash_account")) refunds[e.dim] += e.sums.refunds ?? 0;
        const expected = lines.length > 0 ? subtotal : 0;
        expect(sums).toEqual({
          day: expected,
          staffer: expected,
          service: expected,
          payment_method: expected,
        });
        expect(refunds).toEqual(sums);
      }),
      { numRuns: 300 },
    );
  });

  it("a worked example: 10 % off 3 × 1 250 and a 3 333 service", () => {
    const o: StoredOrder = {
      discountMode: "percent",
      discountAmount: 0,
      discountPercent: 10,
      promocode: null,
      promocodeDiscountAmount: null,
      accountPaidAmount: 0,
      voucherPaidAmount: 0,
    };
    const line = (kind: SoldOrderLine["kind"], refId: string, unitPrice: number, quantity = 1) => ({
      kind,
      refId,
      stafferId: "a",
      unitPrice,
      catalogPrice: unitPrice,
      quantity,
      taxName: null,
      taxRateBp: null,
    });
    const sale = posSaleLines({
      order: o,
      lines: [line("good", "g", 1250, 3), line("service", "s", 3333)],
    });
    // Base 7 083, discount 708 (half-up), split 375 / 333 by largest remainder.
    expect(sale).toEqual([
      { kind: "good", gross: 3750, net: 3375, stafferId: "a", serviceId: null },
      { kind: "service", gross: 3333, net: 3000, stafferId: "a", serviceId: "s" },
    ]);
  });
});

describe("bookingSaleLines", () => {
  const service: fc.Arbitrary<SoldBookedService> = fc.record({
    serviceId: fc.constantFrom("s1", "s2"),
    stafferId: fc.constantFrom("a", "b"),
    price: fc.integer({ min: 0, max: 1_000_000 }),
    originalPrice: fc.integer({ min: 0, max: 1_000_000 }),
    quantity: fc.integer({ min: 1, max: 10 }),
    taxName: fc.constant(null),
    taxRateBp: fc.option(fc.constantFrom(700, 1900), { nil: null }),
  });

  it("every service the booking order's invoice prices, nets adding up to its subtotal", () => {
    fc.assert(
      fc.property(fc.array(service, { maxLength: 10 }), (services) => {
        const sale = bookingSaleLines(services);
        const invoice = bookingOrderInvoice({
          order: { accountPaidAmount: 0, voucherPaidAmount: 0 },
          orderServices: services,
        });
        expect(sale).toHaveLength(services.length);
        expect(grossOf(sale)).toBe(invoice.base_amount);
        expect(netOf(sale)).toBe(invoice.subtotal);
        expect(sale.every((l) => l.kind === "service" && l.serviceId !== null)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
