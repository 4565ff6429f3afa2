import {
  accountChangeFits,
  MAX_ACCOUNT_BALANCE,
  MAX_ORDER_PAID,
  orderPaymentFits,
} from "../domain/money";
import { fieldError } from "./errors";

/**
 * The 422s of a money sum that would leave the range of exact integers
 * (domain/money.ts). Checked before anything is written, so nothing is.
 */
export function assertOrderPaymentFits(paid: number, more: number, field: string): void {
  if (!orderPaymentFits(paid, more))
    throw fieldError(
      field,
      `The order has been paid ${paid}; one order takes at most ${MAX_ORDER_PAID} in all.`,
    );
}

export function assertAccountChangeFits(balance: number, change: number): void {
  if (!accountChangeFits(balance, change))
    throw fieldError(
      "account_uuid",
      `This would take the account's balance (${balance}) past ±${MAX_ACCOUNT_BALANCE}, the most it can hold exactly.`,
    );
}
