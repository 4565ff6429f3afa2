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
