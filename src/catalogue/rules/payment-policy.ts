import { z } from "@hono/zod-openapi";

/**
 * A service's payment policy: what a customer booking online pays now
 * (nothing, a saved card, a deposit, the whole price) and what a late cancel
 * or a no-show costs. Percent amounts are of the service's price (its
 * discounted price when it has one), rounded half up to the minor unit.
 */
export const PAYMENT_MODES = ["none", "card_on_file", "deposit", "prepay"] as const;
export type PaymentMode = (typeof PAYMENT_MODES)[number];

/** Fees may wait up to a week before the start. */
export const MAX_LATE_CANCEL_WINDOW_MINUTES = 10_080;

const MoneyRule = z
  .object({
    percent: z
      .number()
      .int("Must be a whole percent.")
      .min(1, "At least 1.")
      .max(100, "At most 100.")
      .optional(),
    amount: z
      .number()
      .int("Must be whole minor units.")
      .min(1, "At least 1.")
      .max(Number.MAX_SAFE_INTEGER, "Too large.")
      .optional(),
  })
  .strict()
  .refine((m) => (m.percent === undefined) !== (m.amount === undefined), {
    message: "Give exactly one of percent and amount.",
  })
  .openapi("PolicyMoney", {
    description: "A percent (1..100) of the service's price, or a fixed amount in minor units.",
  });

export type MoneyRule = z.infer<typeof MoneyRule>;

export const PaymentPolicySchema = z
  .object({
    mode: z.enum(PAYMENT_MODES).openapi({
      description:
        "What a customer booking online pays now: nothing, a saved card (charged only for fees), a deposit, or the whole price (prepay).",
    }),
    deposit: MoneyRule.optional().openapi({ description: "Required when mode is deposit." }),
    late_cancel: z
      .object({
        window_minutes: z
          .number()
          .int("Must be whole minutes.")
          .min(0, "At least 0.")
          .max(MAX_LATE_CANCEL_WINDOW_MINUTES, `At most ${MAX_LATE_CANCEL_WINDOW_MINUTES}.`),
        fee: MoneyRule,
      })
      .strict()
      .optional()
      .openapi({ description: "A cancel less than window_minutes before the start costs fee." }),
    no_show_fee: MoneyRule.optional(),
  })
  .strict()
  .superRefine((p, ctx) => {
    if (p.mode === "deposit" && !p.deposit)
      ctx.addIssue({
        code: "custom",
        path: ["deposit"],
        message: "Required when mode is deposit.",
      });
    if (p.mode !== "deposit" && p.deposit)
      ctx.addIssue({ code: "custom", path: ["deposit"], message: "Only with mode deposit." });
    if (p.mode === "none" && (p.late_cancel || p.no_show_fee))
      ctx.addIssue({
        code: "custom",
        path: ["mode"],
        message: "Fees need a card: mode card_on_file, deposit or prepay.",
      });
  })
  .openapi("PaymentPolicy");

export type PaymentPolicy = z.infer<typeof PaymentPolicySchema>;

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
