import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { PaymentPolicy, PaymentTerms } from "../../src/catalogue/rules/payment-policy";
import type { PricedService } from "../../src/catalogue/rules/service-payment";
import { bookingShares } from "../../src/payments/rules/booking-shares";

const START = Date.UTC(2030, 0, 10, 10);

const service = (paymentPolicy: PaymentPolicy, price = 8000): PricedService => ({
  paymentPolicy,
  price,
  priceDiscount: null,
});

const booking = (id: string, serviceId: string, start = START) => ({
  id,
  services: [{ serviceId, start, quantity: 1 }],
});

const terms = (over: Partial<PaymentTerms>): PaymentTerms => ({
  mode: "deposit",
  amount_due_now: 0,
  currency: "EUR",
  late_cancel: null,
  no_show_fee: null,
  ...over,
});

describe("bookingShares", () => {
  const deposit = service({
    mode: "deposit",
    deposit: { percent: 25 },
    no_show_fee: { amount: 3000 },
  });
  const prepay = service({ mode: "prepay" }, 6000);
  const services = new Map([
    ["deposit", deposit],
    ["prepay", prepay],
  ]);

  it("a cart's bookings each keep their own policy when the policies still give the agreed terms", () => {
    const shares = bookingShares(
      [booking("a", "deposit"), booking("b", "prepay")],
      services,
      8000,
      terms({ mode: "prepay", amount_due_now: 8000, no_show_fee: 3000 }),
    );
    expect(shares.map((s) => [s.bookingId, s.policy.mode, s.paid])).toEqual([
      ["a", "deposit", 2000],
      ["b", "prepay", 6000],
    ]);
    expect(shares[0]?.policy.no_show_fee).toEqual({ amount: 3000 });
  });

  it("a policy changed after the reservation: the booking keeps the terms the customer agreed to and paid", () => {
    const changed = new Map([
      [
        "deposit",
        service({
          mode: "prepay",
          no_show_fee: { amount: 9000 },
          late_cancel: { window_minutes: 60, fee: { amount: 5000 } },
        }),
      ],
    ]);
    const agreed = terms({ amount_due_now: 2000, no_show_fee: 3000 });
    const [share] = bookingShares([booking("a", "deposit")], changed, 2000, agreed);
    expect(share?.policy).toEqual({
      mode: "deposit",
      deposit: { amount: 2000 },
      no_show_fee: { amount: 3000 },
    });
    expect(share?.terms).toEqual(agreed);
    expect(share?.paid).toBe(2000);
    expect(share?.cancelFeeFrom).toBeNull();
  });

  it("whatever the policies became, the bookings' shares add up to what was paid and to the agreed fees", () => {
    const money = fc.oneof(
      fc.record({ percent: fc.integer({ min: 1, max: 100 }) }),
      fc.record({ amount: fc.integer({ min: 1, max: 50_000 }) }),
    );
    const policy: fc.Arbitrary<PaymentPolicy> = fc.oneof(
      fc.record({ mode: fc.constant("prepay" as const), no_show_fee: money }),
      fc.record({ mode: fc.constant("deposit" as const), deposit: money }),
      fc.record({
        mode: fc.constant("card_on_file" as const),
        late_cancel: fc.record({ window_minutes: fc.integer({ min: 0, max: 10_080 }), fee: money }),
      }),
      fc.constant({ mode: "none" as const }),
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(policy, fc.integer({ min: 0, max: 100_000 })), {
          minLength: 1,
          maxLength: 4,
        }),
        fc.integer({ min: 0, max: 100_000 }),
        fc.option(fc.integer({ min: 1, max: 100_000 }), { nil: null }),
        (now, paid, noShow) => {
          const priced = new Map(now.map(([p, price], i) => [`s${i}`, service(p, price)]));
          const bookings = now.map((_, i) => booking(`b${i}`, `s${i}`, START + i * 3_600_000));
          const agreed = terms({ mode: "prepay", amount_due_now: paid, no_show_fee: noShow });
          const shares = bookingShares(bookings, priced, paid, agreed);
          expect(shares.reduce((sum, s) => sum + s.paid, 0)).toBe(paid);
          expect(shares.every((s) => s.paid >= 0)).toBe(true);
          const fees = shares.reduce((sum, s) => sum + (s.policy.no_show_fee?.amount ?? 0), 0);
          expect(fees).toBe(noShow ?? 0);
          expect(shares.every((s) => !s.policy.late_cancel)).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });
});
