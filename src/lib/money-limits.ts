import {
  accountChangeFits,
  MAX_ACCOUNT_BALANCE,
  MAX_ORDER_PAID,
  orderPaymentFits,
} from "../domain/money";
import type { Subject } from "../domain/problems";
import { fieldError, invalid } from "./errors";

/**
 * A 422 about `about`: a subject the caller's route maps to its field, or
 * (the form callers used before errors named domain things; it goes once they
 * all pass a subject) a request field.
 */
const refuse = (about: Subject | string, message: string) =>
  typeof about === "string" ? fieldError(about, message) : invalid(about, message);

/**
 * The 422s of a money sum that would leave the range of exact integers
 * (domain/money.ts). Checked before anything is written, so nothing is.
 * `about` is what the caller was asked to pay (e.g. `{ is: "amount" }`).
 */
export function assertOrderPaymentFits(paid: number, more: number, about: Subject | string): void {
  if (!orderPaymentFits(paid, more))
    throw refuse(
      about,
      `The order has been paid ${paid}; one order takes at most ${MAX_ORDER_PAID} in all.`,
    );
}

/** `about`: the account the change is on (`{ is: "account" }`); `account_uuid` by default. */
export function assertAccountChangeFits(
  balance: number,
  change: number,
  about: Subject | string = "account_uuid",
): void {
  if (!accountChangeFits(balance, change))
    throw refuse(
      about,
      `This would take the account's balance (${balance}) past ±${MAX_ACCOUNT_BALANCE}, the most it can hold exactly.`,
    );
}
