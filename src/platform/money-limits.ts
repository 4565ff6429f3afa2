import {
  accountChangeFits,
  MAX_ACCOUNT_BALANCE,
  MAX_ORDER_PAID,
  orderPaymentFits,
} from "./rules/money";
import type { Subject } from "./rules/problems";
import { invalid } from "./errors";

/**
 * The 422s of a money sum that would leave the range of exact integers
 * (domain/money.ts). Checked before anything is written, so nothing is.
 * `about` is what the caller was asked to pay (e.g. `{ is: "amount" }`).
 */
export function assertOrderPaymentFits(paid: number, more: number, about: Subject): void {
  if (!orderPaymentFits(paid, more))
    throw invalid(
      about,
      `The order has been paid ${paid}; one order takes at most ${MAX_ORDER_PAID} in all.`,
    );
}

/** `about`: the account the change is on (`{ is: "account" }`), for the caller's route to name. */
export function assertAccountChangeFits(balance: number, change: number, about: Subject): void {
  if (!accountChangeFits(balance, change))
    throw invalid(
      about,
      `This would take the account's balance (${balance}) past ±${MAX_ACCOUNT_BALANCE}, the most it can hold exactly.`,
    );
}
