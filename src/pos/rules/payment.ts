/**
 * How an amount due is paid: vouchers first, in the order the till listed
 * them, each up to what it was asked to cover (or its whole balance), never
 * beyond what is still due; the account pays the rest. Calculate, pay and
 * booking completion all split through here, so a preview covers exactly
 * what paying takes.
 */
export interface VoucherTender {
  code: string;
  balance: number;
  /** The most the till wants this voucher to cover; null: as much as it can. */
  asked: number | null;
}

export interface PaymentSplit {
  /** What each voucher covers, in the order given; vouchers that cover nothing are left out. */
  parts: { code: string; amount: number }[];
  voucher: number;
  account: number;
}

export function splitPayment(due: number, tenders: readonly VoucherTender[]): PaymentSplit {
  let left = Math.max(0, due);
  const parts: PaymentSplit["parts"] = [];
  for (const t of tenders) {
    const amount = Math.max(0, Math.min(left, t.balance, t.asked ?? t.balance));
    if (amount === 0) continue;
    parts.push({ code: t.code, amount });
    left -= amount;
  }
  return { parts, voucher: Math.max(0, due) - left, account: left };
}

/** Vouchers one payment may list: a till rarely holds more than a few gift cards for one bill. */
export const MAX_PAYMENT_VOUCHERS = 10;
/** Vouchers one order may issue (units over its voucher lines), so paying it stays one small batch. */
export const MAX_VOUCHERS_PER_ORDER = 100;
