import type { MoneyRule, PaymentMode, PaymentPolicy } from "../views/payment-policy";

// The policy's shape is its API schema (views/payment-policy.ts); these are its rules.
export type { MoneyRule, PaymentMode, PaymentPolicy } from "../views/payment-policy";

export const NO_POLICY: PaymentPolicy = { mode: "none" };

/** A percent of a price in minor units, rounded half up (prices are never negative). */
export const percentOf = (price: number, percent: number) =>
  Math.floor((price * percent + 50) / 100);

const amountOf = (rule: MoneyRule, price: number) =>
  rule.amount ?? percentOf(price, rule.percent ?? 0);

/** A policy with every amount resolved against the service's price: what a booking copies. */
export interface ResolvedPolicy {
  mode: PaymentMode;
  deposit?: { amount: number };
  late_cancel?: { window_minutes: number; fee: { amount: number } };
  no_show_fee?: { amount: number };
}

export function resolvePolicy(policy: PaymentPolicy, price: number): ResolvedPolicy {
  const due =
    policy.mode === "prepay"
      ? price
      : policy.mode === "deposit" && policy.deposit
        ? Math.min(price, amountOf(policy.deposit, price))
        : null;
  return {
    mode: policy.mode,
    ...(due !== null && policy.mode !== "prepay" ? { deposit: { amount: due } } : {}),
    ...(policy.mode === "prepay" ? { deposit: { amount: price } } : {}),
    ...(policy.late_cancel
      ? {
          late_cancel: {
            window_minutes: policy.late_cancel.window_minutes,
            fee: { amount: amountOf(policy.late_cancel.fee, price) },
          },
        }
      : {}),
    ...(policy.no_show_fee ? { no_show_fee: { amount: amountOf(policy.no_show_fee, price) } } : {}),
  };
}

const STRICTNESS: Record<PaymentMode, number> = { none: 0, card_on_file: 1, deposit: 2, prepay: 3 };

/** The stricter of two modes: prepay > deposit > card_on_file > none. */
export const stricter = (a: PaymentMode, b: PaymentMode) => (STRICTNESS[b] > STRICTNESS[a] ? b : a);

/**
 * Several services' resolved policies as one (a booking of several services,
 * a cart): the strictest mode, amounts added up, the longest late-cancel
 * window. A deposit and a prepay together pay the deposit of one and the
 * price of the other.
 */
export function combinePolicies(policies: ResolvedPolicy[]): ResolvedPolicy {
  let mode: PaymentMode = "none";
  let due = 0;
  let window: number | null = null;
  let lateFee = 0;
  let noShow: number | null = null;
  for (const p of policies) {
    mode = stricter(mode, p.mode);
    due += p.deposit?.amount ?? 0;
    if (p.late_cancel) {
      window = Math.max(window ?? 0, p.late_cancel.window_minutes);
      lateFee += p.late_cancel.fee.amount;
    }
    if (p.no_show_fee) noShow = (noShow ?? 0) + p.no_show_fee.amount;
  }
  return {
    mode,
    ...(mode === "deposit" || mode === "prepay" ? { deposit: { amount: due } } : {}),
    ...(window !== null
      ? { late_cancel: { window_minutes: window, fee: { amount: lateFee } } }
      : {}),
    ...(noShow !== null ? { no_show_fee: { amount: noShow } } : {}),
  };
}

/** What a resolved policy asks of the customer now, as a reservation and a booking show it. */
export interface PaymentTerms {
  mode: PaymentMode;
  amount_due_now: number;
  currency: string;
  late_cancel: { window_minutes: number; fee: number } | null;
  no_show_fee: number | null;
}

export const termsOf = (policy: ResolvedPolicy, currency: string): PaymentTerms => ({
  mode: policy.mode,
  amount_due_now: policy.deposit?.amount ?? 0,
  currency,
  late_cancel: policy.late_cancel
    ? { window_minutes: policy.late_cancel.window_minutes, fee: policy.late_cancel.fee.amount }
    : null,
  no_show_fee: policy.no_show_fee?.amount ?? null,
});

/** Nothing to pay or guarantee: such a booking needs no checkout. */
export const needsPayment = (terms: PaymentTerms) => terms.mode !== "none";

/** The instant (ms) from which cancelling costs the late-cancel fee, or null without one. */
export const cancelFeeFrom = (policy: ResolvedPolicy, start: number) =>
  policy.late_cancel ? start - policy.late_cancel.window_minutes * 60_000 : null;
