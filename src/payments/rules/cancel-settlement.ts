import type { PaymentTerms } from "../../catalogue/rules/payment-policy";

/** The fees a cancel can cost: the ledger's kinds, and the last part of their Idempotency-Keys. */
export type FeeKind = "late_cancel_fee" | "no_show_fee";

/** A booking's money as the cancel finds it (minor units). */
export interface BookingMoney {
  /** The fees the booking was made under (copied when it was made). */
  terms: Pick<PaymentTerms, "late_cancel" | "no_show_fee">;
  paidOnline: number;
  /** Already given back (a refund made in the provider's dashboard, say): never refunded twice. */
  refunded: number;
  /** From this instant (ms) a customer's cancel costs the late-cancel fee; null without one. */
  cancelFeeFrom: number | null;
  /** The provider keeps a card of the customer's that may be charged off-session. */
  hasSavedCard: boolean;
}

/** The cancel as the booking recorded it. */
export interface CancelFacts {
  canceledAt: number;
  /** A customer (publishable key or manage link) or staff (a secret key). */
  canceledBy: "customer" | "staff";
  cancelReason: string;
  /** Staff asked for the fee (`charge_fee`); a customer's cancel never carries it. */
  chargeFee: boolean;
}

/**
 * What a cancel does with the booking's money: how much of what was paid
 * online goes back, which fee applies (and how much of it is kept out of what
 * was paid, how much is charged to the saved card). `charge` is null when
 * nothing is left to charge; `failure` says why a charge cannot even be tried.
 */
export interface Settlement {
  fee: { kind: FeeKind; amount: number; kept: number } | null;
  refund: number;
  charge: { kind: FeeKind; amount: number; failure: "no_saved_card" | null } | null;
}

/**
 * The fee a cancel costs, or null. A customer pays the late-cancel fee from
 * `cancelFeeFrom` on (at that instant too). Staff decide: without
 * `chargeFee` nothing; with it the late-cancel fee whatever the time (the
 * front desk judged the cancel late), or the no-show fee when the reason is
 * `didnt_come`. A fee the booking's terms do not have costs nothing.
 */
export function feeOf(
  money: BookingMoney,
  cancel: CancelFacts,
): { kind: FeeKind; amount: number } | null {
  const { late_cancel: late, no_show_fee: noShow } = money.terms;
  let fee: { kind: FeeKind; amount: number } | null = null;
  if (cancel.canceledBy === "customer") {
    if (late && money.cancelFeeFrom !== null && cancel.canceledAt >= money.cancelFeeFrom)
      fee = { kind: "late_cancel_fee", amount: late.fee };
  } else if (cancel.chargeFee) {
    if (cancel.cancelReason === "didnt_come") {
      if (noShow !== null) fee = { kind: "no_show_fee", amount: noShow };
    } else if (late) fee = { kind: "late_cancel_fee", amount: late.fee };
  }
  return fee && fee.amount > 0 ? fee : null;
}

/**
 * A cancel's settlement: the fee is kept out of what was paid online (and
 * not refunded yet), the rest of that goes back, and what the payment did not
 * cover is charged off-session to the saved card, or recorded as failed
 * (`no_saved_card`) when there is none. Money is never made up: what is kept
 * plus what is refunded is what was paid and not refunded before.
 */
export function settleCancel(money: BookingMoney, cancel: CancelFacts): Settlement {
  const available = Math.max(0, money.paidOnline - money.refunded);
  const fee = feeOf(money, cancel);
  if (!fee) return { fee: null, refund: available, charge: null };
  const kept = Math.min(fee.amount, available);
  const rest = fee.amount - kept;
  return {
    fee: { ...fee, kept },
    refund: available - kept,
    charge:
      rest > 0
        ? { kind: fee.kind, amount: rest, failure: money.hasSavedCard ? null : "no_saved_card" }
        : null,
  };
}
