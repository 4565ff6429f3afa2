import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type BookingMoney,
  type CancelFacts,
  feeOf,
  settleCancel,
} from "../../src/payments/rules/cancel-settlement";

const START = Date.UTC(2030, 0, 10, 10);
const FEE_FROM = START - 24 * 3_600_000;

const money = (over: Partial<BookingMoney> = {}): BookingMoney => ({
  terms: { late_cancel: { window_minutes: 1440, fee: 1000 }, no_show_fee: 2500 },
  paidOnline: 0,
  refunded: 0,
  cancelFeeFrom: FEE_FROM,
  hasSavedCard: true,
  ...over,
});

const customer = (at: number): CancelFacts => ({
  canceledAt: at,
  canceledBy: "customer",
  cancelReason: "canceled",
  chargeFee: false,
});

const staff = (over: Partial<CancelFacts> = {}): CancelFacts => ({
  canceledAt: FEE_FROM - 3_600_000,
  canceledBy: "staff",
  cancelReason: "canceled",
  chargeFee: false,
  ...over,
});

describe("settleCancel: a customer's cancel", () => {
  it("before the fee instant refunds everything paid online, charges nothing", () => {
    expect(settleCancel(money({ paidOnline: 3000 }), customer(FEE_FROM - 1))).toEqual({
      fee: null,
      refund: 3000,
      charge: null,
    });
  });

  it("at the fee instant keeps the late fee out of the deposit and refunds the rest", () => {
    expect(settleCancel(money({ paidOnline: 3000 }), customer(FEE_FROM))).toEqual({
      fee: { kind: "late_cancel_fee", amount: 1000, kept: 1000 },
      refund: 2000,
      charge: null,
    });
  });

  it("after it, with less paid than the fee, keeps all and charges the difference to the card", () => {
    expect(settleCancel(money({ paidOnline: 400 }), customer(FEE_FROM + 60_000))).toEqual({
      fee: { kind: "late_cancel_fee", amount: 1000, kept: 400 },
      refund: 0,
      charge: { kind: "late_cancel_fee", amount: 600, failure: null },
    });
  });

  it("with a card on file and nothing paid charges the whole fee off-session", () => {
    expect(settleCancel(money(), customer(START))).toEqual({
      fee: { kind: "late_cancel_fee", amount: 1000, kept: 0 },
      refund: 0,
      charge: { kind: "late_cancel_fee", amount: 1000, failure: null },
    });
  });

  it("without a saved card the uncovered fee is a failure (no_saved_card)", () => {
    expect(settleCancel(money({ hasSavedCard: false, paidOnline: 300 }), customer(START))).toEqual({
      fee: { kind: "late_cancel_fee", amount: 1000, kept: 300 },
      refund: 0,
      charge: { kind: "late_cancel_fee", amount: 700, failure: "no_saved_card" },
    });
  });

  it("a booking without a late-cancel fee costs nothing, however late", () => {
    const terms = { late_cancel: null, no_show_fee: 2500 };
    expect(
      settleCancel(money({ terms, cancelFeeFrom: null, paidOnline: 900 }), customer(START)),
    ).toEqual({ fee: null, refund: 900, charge: null });
  });

  it("what was refunded before (the provider's dashboard) is not refunded again", () => {
    expect(settleCancel(money({ paidOnline: 3000, refunded: 2500 }), customer(FEE_FROM))).toEqual({
      fee: { kind: "late_cancel_fee", amount: 1000, kept: 500 },
      refund: 0,
      charge: { kind: "late_cancel_fee", amount: 500, failure: null },
    });
  });

  it("a customer never pays the no-show fee, even giving the reason didnt_come", () => {
    const facts = { ...customer(FEE_FROM - 1), cancelReason: "didnt_come", chargeFee: true };
    expect(feeOf(money(), facts)).toBeNull();
  });
});

describe("settleCancel: staff's cancel", () => {
  it("without charge_fee refunds everything, even after the fee instant", () => {
    expect(settleCancel(money({ paidOnline: 3000 }), staff({ canceledAt: START }))).toEqual({
      fee: null,
      refund: 3000,
      charge: null,
    });
  });

  it("with charge_fee charges the late fee whatever the time", () => {
    expect(settleCancel(money({ paidOnline: 3000 }), staff({ chargeFee: true }))).toEqual({
      fee: { kind: "late_cancel_fee", amount: 1000, kept: 1000 },
      refund: 2000,
      charge: null,
    });
  });

  it("didnt_come with charge_fee charges the no-show fee the same way", () => {
    expect(
      settleCancel(
        money({ paidOnline: 1000 }),
        staff({ cancelReason: "didnt_come", chargeFee: true }),
      ),
    ).toEqual({
      fee: { kind: "no_show_fee", amount: 2500, kept: 1000 },
      refund: 0,
      charge: { kind: "no_show_fee", amount: 1500, failure: null },
    });
  });

  it("didnt_come without a no-show fee in the terms costs nothing", () => {
    const terms = { late_cancel: { window_minutes: 60, fee: 1000 }, no_show_fee: null };
    expect(
      settleCancel(
        money({ terms, paidOnline: 800 }),
        staff({ cancelReason: "didnt_come", chargeFee: true }),
      ),
    ).toEqual({ fee: null, refund: 800, charge: null });
  });
});

const amount = fc.integer({ min: 0, max: 1_000_000 });
const anyMoney: fc.Arbitrary<BookingMoney> = fc
  .record({
    late: fc.option(
      fc.record({ window_minutes: fc.integer({ min: 0, max: 10_080 }), fee: amount }),
    ),
    noShow: fc.option(amount),
    paidOnline: amount,
    refundedShare: fc.double({ min: 0, max: 1, noNaN: true }),
    cancelFeeFrom: fc.option(fc.integer({ min: 0, max: 2_000_000 })),
    hasSavedCard: fc.boolean(),
  })
  .map((m) => ({
    terms: { late_cancel: m.late, no_show_fee: m.noShow },
    paidOnline: m.paidOnline,
    refunded: Math.floor(m.paidOnline * m.refundedShare),
    cancelFeeFrom: m.late ? m.cancelFeeFrom : null,
    hasSavedCard: m.hasSavedCard,
  }));
const anyCancel: fc.Arbitrary<CancelFacts> = fc.record({
  canceledAt: fc.integer({ min: 0, max: 2_000_000 }),
  canceledBy: fc.constantFrom("customer" as const, "staff" as const),
  cancelReason: fc.constantFrom("canceled", "didnt_come", "postponed", "other"),
  chargeFee: fc.boolean(),
});

describe("settleCancel: properties", () => {
  it("money is never made up: kept + refunded = what was paid and not yet refunded", () => {
    fc.assert(
      fc.property(anyMoney, anyCancel, (m, c) => {
        const s = settleCancel(m, c);
        expect((s.fee?.kept ?? 0) + s.refund).toBe(m.paidOnline - m.refunded);
        expect(s.refund).toBeGreaterThanOrEqual(0);
      }),
    );
  });

  it("with a saved card, kept + charged = the fee; without one nothing is charged", () => {
    fc.assert(
      fc.property(anyMoney, anyCancel, (m, c) => {
        const s = settleCancel(m, c);
        const charged = s.charge && s.charge.failure === null ? s.charge.amount : 0;
        if (m.hasSavedCard) expect((s.fee?.kept ?? 0) + charged).toBe(s.fee?.amount ?? 0);
        else expect(charged).toBe(0);
        if (s.charge) {
          expect(s.charge.amount).toBeGreaterThan(0);
          expect(s.charge.kind).toBe(s.fee?.kind);
          expect(s.refund).toBe(0);
        }
      }),
    );
  });

  it("the fee is only ever the booking's own: the late fee or the no-show fee of its terms", () => {
    fc.assert(
      fc.property(anyMoney, anyCancel, (m, c) => {
        const s = settleCancel(m, c);
        if (!s.fee) return;
        const expected =
          s.fee.kind === "late_cancel_fee" ? m.terms.late_cancel?.fee : m.terms.no_show_fee;
        expect(s.fee.amount).toBe(expected);
        if (c.canceledBy === "customer") {
          expect(s.fee.kind).toBe("late_cancel_fee");
          expect(c.canceledAt).toBeGreaterThanOrEqual(m.cancelFeeFrom ?? Infinity);
        } else expect(c.chargeFee).toBe(true);
      }),
    );
  });

  it("staff without charge_fee, and a customer before the fee instant, get everything back", () => {
    fc.assert(
      fc.property(anyMoney, anyCancel, (m, c) => {
        const early =
          c.canceledBy === "customer" &&
          (m.cancelFeeFrom === null || c.canceledAt < m.cancelFeeFrom);
        const staffFree = c.canceledBy === "staff" && !c.chargeFee;
        if (!early && !staffFree) return;
        expect(settleCancel(m, c)).toEqual({
          fee: null,
          refund: m.paidOnline - m.refunded,
          charge: null,
        });
      }),
    );
  });
});
