import type { z } from "zod";
import type { StoredPaymentPolicySchema } from "../../db/schema/payments";
import type { MoneyRule, PaymentPolicy } from "../rules/payment-policy";

export type StoredPaymentPolicy = z.infer<typeof StoredPaymentPolicySchema>;

const storedMoney = (m: MoneyRule) =>
  m.amount !== undefined ? { amount: m.amount } : { percent: m.percent ?? 0 };

/**
 * A validated policy as the services table keeps it: `mode: "none"` is no
 * policy (null), so a service without one and a service set back to none
 * read the same; a money object keeps the one amount it was given.
 */
export function storedPolicy(policy: PaymentPolicy): StoredPaymentPolicy | null {
  if (policy.mode === "none") return null;
  return {
    mode: policy.mode,
    ...(policy.deposit ? { deposit: storedMoney(policy.deposit) } : {}),
    ...(policy.late_cancel
      ? {
          late_cancel: {
            window_minutes: policy.late_cancel.window_minutes,
            fee: storedMoney(policy.late_cancel.fee),
          },
        }
      : {}),
    ...(policy.no_show_fee ? { no_show_fee: storedMoney(policy.no_show_fee) } : {}),
  };
}
