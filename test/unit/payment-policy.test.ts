import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  cancelFeeFrom,
  combinePolicies,
  needsPayment,
  type PaymentMode,
  type PaymentPolicy,
  percentOf,
  type ResolvedPolicy,
  resolvePolicy,
  stricter,
  termsOf,
} from "../../src/catalogue/rules/payment-policy";
import { visitPaymentTerms } from "../../src/catalogue/rules/service-payment";
import {
  MAX_LATE_CANCEL_WINDOW_MINUTES,
  PAYMENT_MODES,
  PaymentPolicySchema,
} from "../../src/catalogue/views/payment-policy";

const RANK: Record<PaymentMode, number> = { none: 0, card_on_file: 1, deposit: 2, prepay: 3 };
const price = fc.integer({ min: 0, max: 10_000_000 });
const percent = fc.integer({ min: 1, max: 100 });
const amount = fc.integer({ min: 1, max: 1_000_000 });
const money = fc.oneof(
  percent.map((p) => ({ percent: p })),
  amount.map((a) => ({ amount: a })),
);
const window = fc.integer({ min: 0, max: MAX_LATE_CANCEL_WINDOW_MINUTES });
const policy: fc.Arbitrary<PaymentPolicy> = fc
  .record({
    mode: fc.constantFrom(...PAYMENT_MODES),
    deposit: money,
    late_cancel: fc.option(fc.record({ window_minutes: window, fee: money }), { nil: undefined }),
    no_show_fee: fc.option(money, { nil: undefined }),
  })
  .map(({ mode, deposit, late_cancel, no_show_fee }) =>
    mode === "none"
      ? { mode }
      : {
          mode,
          ...(mode === "deposit" ? { deposit } : {}),
          ...(late_cancel ? { late_cancel } : {}),
          ...(no_show_fee ? { no_show_fee } : {}),
        },
  );
const resolved = fc.tuple(policy, price).map(([p, pr]) => resolvePolicy(p, pr));

const issues = (input: unknown) => {
  const result = PaymentPolicySchema.safeParse(input);
  return result.success ? null : result.error.issues.map((i) => i.path.join("."));
};

describe("percentOf", () => {
  it("rounds half up to the minor unit", () => {
    expect(percentOf(250, 1)).toBe(3); // 2.5
    expect(percentOf(249, 1)).toBe(2); // 2.49
    expect(percentOf(333, 50)).toBe(167); // 166.5
    expect(percentOf(3500, 15)).toBe(525);
    expect(percentOf(7900, 100)).toBe(7900);
    expect(percentOf(0, 100)).toBe(0);
  });

  it("property: within half a unit of the exact amount, a half rounded up", () => {
    fc.assert(
      fc.property(price, percent, (p, pct) => {
        // Hundredths of a minor unit: the exact amount and the rounded one, in integers.
        const diff = percentOf(p, pct) * 100 - p * pct;
        expect(diff).toBeGreaterThan(-50);
        expect(diff).toBeLessThanOrEqual(50);
      }),
    );
  });
});

describe("PaymentPolicySchema", () => {
  it("takes each mode and the whole shape", () => {
    expect(issues({ mode: "none" })).toBeNull();
    expect(issues({ mode: "card_on_file", no_show_fee: { amount: 2000 } })).toBeNull();
    expect(issues({ mode: "prepay" })).toBeNull();
    expect(
      issues({
        mode: "deposit",
        deposit: { percent: 20 },
        late_cancel: { window_minutes: MAX_LATE_CANCEL_WINDOW_MINUTES, fee: { percent: 50 } },
        no_show_fee: { percent: 100 },
      }),
    ).toBeNull();
  });

  it("refuses every bad shape, naming the field", () => {
    expect(issues({ mode: "deposit", deposit: { percent: 10, amount: 100 } })).toEqual(["deposit"]);
    expect(issues({ mode: "deposit", deposit: {} })).toEqual(["deposit"]);
    expect(issues({ mode: "deposit", deposit: { percent: 0 } })).toEqual(["deposit.percent"]);
    expect(issues({ mode: "deposit", deposit: { percent: 101 } })).toEqual(["deposit.percent"]);
    expect(issues({ mode: "deposit", deposit: { percent: 2.5 } })).toEqual(["deposit.percent"]);
    expect(issues({ mode: "deposit", deposit: { amount: 0 } })).toEqual(["deposit.amount"]);
    expect(
      issues({
        mode: "prepay",
        late_cancel: { window_minutes: MAX_LATE_CANCEL_WINDOW_MINUTES + 1, fee: { amount: 1 } },
      }),
    ).toEqual(["late_cancel.window_minutes"]);
    expect(
      issues({ mode: "prepay", late_cancel: { window_minutes: -1, fee: { amount: 1 } } }),
    ).toEqual(["late_cancel.window_minutes"]);
    expect(issues({ mode: "deposit" })).toEqual(["deposit"]);
    expect(issues({ mode: "prepay", deposit: { percent: 10 } })).toEqual(["deposit"]);
    expect(issues({ mode: "none", no_show_fee: { amount: 500 } })).toEqual(["mode"]);
    expect(
      issues({ mode: "none", late_cancel: { window_minutes: 60, fee: { amount: 500 } } }),
    ).toEqual(["mode"]);
    expect(issues({ mode: "prepay", tip: true })).toEqual([""]);
    expect(issues({ mode: "deposit", deposit: { percent: 10, currency: "EUR" } })).toEqual([
      "deposit",
    ]);
    expect(issues({ mode: "free" })).toEqual(["mode"]);
  });

  it("property: a money object is valid exactly when it has one of percent 1..100 and amount ≥ 1", () => {
    const maybe = (min: number, max: number) =>
      fc.option(fc.integer({ min, max }), { nil: undefined });
    fc.assert(
      fc.property(maybe(-5, 105), maybe(-5, 5_000), (pct, amt) => {
        const rule = {
          ...(pct !== undefined ? { percent: pct } : {}),
          ...(amt !== undefined ? { amount: amt } : {}),
        };
        const valid =
          (pct === undefined) !== (amt === undefined) &&
          (pct === undefined || (pct >= 1 && pct <= 100)) &&
          (amt === undefined || amt >= 1);
        expect(issues({ mode: "card_on_file", no_show_fee: rule }) === null).toBe(valid);
      }),
    );
  });
});

describe("resolvePolicy", () => {
  it("resolves percents against the price and caps a deposit at it", () => {
    expect(
      resolvePolicy(
        {
          mode: "deposit",
          deposit: { percent: 15 },
          late_cancel: { window_minutes: 1440, fee: { percent: 50 } },
          no_show_fee: { amount: 2000 },
        },
        3333,
      ),
    ).toEqual({
      mode: "deposit",
      deposit: { amount: 500 }, // 499.95
      late_cancel: { window_minutes: 1440, fee: { amount: 1667 } }, // 1666.5
      no_show_fee: { amount: 2000 },
    });
    expect(resolvePolicy({ mode: "deposit", deposit: { amount: 9000 } }, 3500).deposit).toEqual({
      amount: 3500,
    });
    expect(resolvePolicy({ mode: "prepay" }, 7900)).toEqual({
      mode: "prepay",
      deposit: { amount: 7900 },
    });
    expect(resolvePolicy({ mode: "none" }, 7900)).toEqual({ mode: "none" });
  });

  it("property: what is due now never exceeds the price, and is the price for prepay", () => {
    fc.assert(
      fc.property(policy, price, (p, pr) => {
        const r = resolvePolicy(p, pr);
        const due = termsOf(r, "EUR").amount_due_now;
        expect(due).toBeLessThanOrEqual(pr);
        if (p.mode === "prepay") expect(due).toBe(pr);
        if (p.mode === "none" || p.mode === "card_on_file") expect(due).toBe(0);
      }),
    );
  });
});

describe("combinePolicies", () => {
  it("adds amounts, keeps the strictest mode and the longest window", () => {
    const combined = combinePolicies([
      { mode: "card_on_file", late_cancel: { window_minutes: 60, fee: { amount: 1000 } } },
      {
        mode: "deposit",
        deposit: { amount: 700 },
        late_cancel: { window_minutes: 1440, fee: { amount: 300 } },
        no_show_fee: { amount: 2000 },
      },
      { mode: "none" },
      { mode: "deposit", deposit: { amount: 300 }, no_show_fee: { amount: 500 } },
    ]);
    expect(combined).toEqual({
      mode: "deposit",
      deposit: { amount: 1000 },
      late_cancel: { window_minutes: 1440, fee: { amount: 1300 } },
      no_show_fee: { amount: 2500 },
    });
    expect(combinePolicies([])).toEqual({ mode: "none" });
    expect(
      combinePolicies([{ mode: "prepay", deposit: { amount: 3500 } }, { mode: "card_on_file" }]),
    ).toEqual({ mode: "prepay", deposit: { amount: 3500 } });
  });

  it("property: strictest mode, sums and the maximum window, in any order", () => {
    fc.assert(
      fc.property(fc.array(resolved, { maxLength: 8 }), (list) => {
        const c = combinePolicies(list);
        const sum = (f: (p: ResolvedPolicy) => number | undefined) =>
          list.reduce((s, p) => s + (f(p) ?? 0), 0);
        expect(RANK[c.mode]).toBe(Math.max(0, ...list.map((p) => RANK[p.mode])));
        expect(list.reduce<PaymentMode>((m, p) => stricter(m, p.mode), "none")).toBe(c.mode);
        const terms = termsOf(c, "EUR");
        if (c.mode === "deposit" || c.mode === "prepay")
          expect(terms.amount_due_now).toBe(sum((p) => p.deposit?.amount));
        else expect(terms.amount_due_now).toBe(0);
        const windows = list.flatMap((p) => (p.late_cancel ? [p.late_cancel.window_minutes] : []));
        expect(terms.late_cancel).toEqual(
          windows.length > 0
            ? { window_minutes: Math.max(...windows), fee: sum((p) => p.late_cancel?.fee.amount) }
            : null,
        );
        expect(terms.no_show_fee).toBe(
          list.some((p) => p.no_show_fee) ? sum((p) => p.no_show_fee?.amount) : null,
        );
        expect(combinePolicies([...list].reverse())).toEqual(c);
      }),
    );
  });
});

describe("termsOf, needsPayment and cancelFeeFrom", () => {
  const START = Date.parse("2030-03-04T10:00:00Z");

  it("shows what is due and whether anything is asked", () => {
    const onFile = termsOf({ mode: "card_on_file", no_show_fee: { amount: 2000 } }, "EUR");
    expect(onFile).toEqual({
      mode: "card_on_file",
      amount_due_now: 0,
      currency: "EUR",
      late_cancel: null,
      no_show_fee: 2000,
    });
    expect(needsPayment(onFile)).toBe(true);
    expect(needsPayment(termsOf({ mode: "none" }, "EUR"))).toBe(false);
  });

  it("puts the fee's start window_minutes before the start, and none without a late-cancel fee", () => {
    const late = (w: number): ResolvedPolicy => ({
      mode: "card_on_file",
      late_cancel: { window_minutes: w, fee: { amount: 100 } },
    });
    expect(cancelFeeFrom(late(1440), START)).toBe(START - 24 * 3_600_000);
    expect(cancelFeeFrom(late(0), START)).toBe(START);
    expect(cancelFeeFrom({ mode: "prepay", deposit: { amount: 1 } }, START)).toBeNull();
    fc.assert(
      fc.property(window, fc.integer({ min: 0, max: 4_000_000_000_000 }), (w, start) => {
        expect(start - (cancelFeeFrom(late(w), start) ?? NaN)).toBe(w * 60_000);
      }),
    );
  });
});

describe("visitPaymentTerms (services of a visit)", () => {
  const service = (
    paymentPolicy: PaymentPolicy | null,
    p = 3500,
    discount: number | null = null,
  ) => ({
    paymentPolicy,
    price: p,
    priceDiscount: discount,
  });

  it("is null when no service asks anything", () => {
    expect(visitPaymentTerms([], "EUR")).toBeNull();
    expect(
      visitPaymentTerms(
        [
          { service: service(null), quantity: 1 },
          { service: service({ mode: "none" }), quantity: 3 },
        ],
        "EUR",
      ),
    ).toBeNull();
  });

  it("takes percents of the discounted price, per seat, and adds the services up", () => {
    const terms = visitPaymentTerms(
      [
        {
          service: service({ mode: "deposit", deposit: { percent: 10 } }, 8900, 7900),
          quantity: 1,
        },
        {
          service: service({ mode: "prepay", no_show_fee: { amount: 500 } }, 1250),
          quantity: 3,
        },
        { service: service(null), quantity: 1 },
      ],
      "EUR",
    );
    expect(terms).toEqual({
      mode: "prepay",
      amount_due_now: 790 + 3 * 1250,
      currency: "EUR",
      late_cancel: null,
      no_show_fee: 3 * 500,
    });
  });

  it("property: n seats ask n times what one seat asks", () => {
    fc.assert(
      fc.property(policy, price, fc.integer({ min: 1, max: 100 }), (p, pr, seats) => {
        const one = visitPaymentTerms([{ service: service(p, pr), quantity: 1 }], "EUR");
        const many = visitPaymentTerms([{ service: service(p, pr), quantity: seats }], "EUR");
        if (!one) {
          expect(many).toBeNull();
          return;
        }
        expect(many?.mode).toBe(one.mode);
        expect(many?.amount_due_now).toBe(one.amount_due_now * seats);
        expect(many?.no_show_fee).toBe(one.no_show_fee === null ? null : one.no_show_fee * seats);
        expect(many?.late_cancel?.fee).toBe(
          one.late_cancel ? one.late_cancel.fee * seats : undefined,
        );
      }),
    );
  });
});
