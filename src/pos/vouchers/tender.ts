import { type VoucherRow, spendVoucher, vouchersByCodes } from "../queries/vouchers";
import { read } from "../../db/reads";
import type { Scope } from "../../db/scope";
import type { Statement } from "../../db/statement";
import { normaliseCode, type PaymentSplit, splitPayment } from "../rules";
import type { Problem } from "../../platform/rules/problems";
import { ApiError, InvalidError } from "../../platform/errors";

/** A voucher the till offers as payment, as the request listed it. */
export interface VoucherOffer {
  code: string;
  /** The most it should cover; null: as much as its balance and the bill allow. */
  amount: number | null;
}

/** The vouchers offered, as read: what they can cover and the balances the write will check. */
export interface TenderedVouchers {
  offers: { offer: VoucherOffer; row: VoucherRow }[];
}

const NO_VOUCHERS: TenderedVouchers = { offers: [] };

/** The stored form of each offered code (null: cannot be a code), to read them in one query. */
export const offeredCodes = (offers: readonly VoucherOffer[]) =>
  offers.map((o) => normaliseCode(o.code));

/** The codes worth looking up: those that can be codes at all. */
export const codesToRead = (offers: readonly VoucherOffer[]) =>
  offeredCodes(offers).filter((c): c is string => c !== null);

/** The read of the offered vouchers, to batch with the request's other reads. */
export const readOffered = (scope: Scope, offers: readonly VoucherOffer[]) =>
  vouchersByCodes(scope, codesToRead(offers));

/** `readOffered` as a read to run beside others (`readTogether`). */
export const offeredRead = (scope: Scope, offers: readonly VoucherOffer[]) =>
  read([readOffered(scope, offers)], ([rows]) => rows);

/** What an offered voucher can be wrong about, by its position in the list: its code, its amount. */
export type VoucherSubject =
  { is: "voucher code"; voucher: number } | { is: "voucher amount"; voucher: number };

/**
 * Checks each offered voucher (as read by `readOffered`) can pay: unknown
 * codes (or another workspace's) and repeats are 422; a voided or spent
 * voucher, or an amount above its balance, is 409 voucher_unavailable (both
 * `InvalidError`s about the vouchers; the route names the list's fields).
 */
export function tenderOffers(
  offers: readonly VoucherOffer[],
  rows: readonly VoucherRow[],
): TenderedVouchers {
  if (offers.length === 0) return NO_VOUCHERS;
  const codes = offeredCodes(offers);
  const byCode = new Map(rows.map((r) => [r.code, r]));
  const invalid: Problem<VoucherSubject>[] = [];
  const unavailable: Problem<VoucherSubject>[] = [];
  const seen = new Set<string>();
  const tendered: TenderedVouchers["offers"] = [];
  offers.forEach((offer, voucher) => {
    const code = codes[voucher] ?? null;
    const row = code === null ? undefined : byCode.get(code);
    const about = { is: "voucher code", voucher } as const;
    if (!code || !row) return void invalid.push({ about, messages: ["Unknown voucher."] });
    if (seen.has(code)) return void invalid.push({ about, messages: ["Listed twice."] });
    seen.add(code);
    if (row.status === "void")
      return void unavailable.push({ about, messages: ["The voucher is void."] });
    if (row.balance === 0)
      return void unavailable.push({ about, messages: ["The voucher has nothing left."] });
    if (offer.amount !== null && offer.amount > row.balance)
      return void unavailable.push({
        about: { is: "voucher amount", voucher },
        messages: [`More than the voucher's balance (${row.balance}).`],
      });
    tendered.push({ offer, row });
  });
  if (invalid.length > 0) throw new InvalidError(invalid);
  if (unavailable.length > 0)
    throw new InvalidError(unavailable, {
      code: "voucher_unavailable",
      message: "A voucher cannot pay what was asked of it.",
    });
  return { offers: tendered };
}

/** What the tendered vouchers cover of `due`, and the account the rest (the one split). */
export const splitTender = (due: number, t: TenderedVouchers): PaymentSplit =>
  splitPayment(
    due,
    t.offers.map(({ offer, row }) => ({
      code: row.code,
      balance: row.balance,
      asked: offer.amount,
    })),
  );

/** The batch statements that spend the split's voucher parts on an order, each guarded. */
export function spendTender(
  scope: Scope,
  t: TenderedVouchers,
  split: PaymentSplit,
  on: { orderId: string; bookingId: string | null; at: number },
): Statement[] {
  const rowOf = new Map(t.offers.map(({ row }) => [row.code, row]));
  return split.parts.flatMap((part) => {
    const voucher = rowOf.get(part.code);
    return voucher ? spendVoucher(scope, { voucher, amount: part.amount, ...on }) : [];
  });
}

/**
 * The answer of a payment that lost a race for one of its vouchers: retrying
 * it on the new balance would quietly move the difference onto the account.
 */
export const voucherBalanceChanged = () =>
  new ApiError(
    "voucher_balance_changed",
    "Another payment spent one of these vouchers at the same moment; check its balance and try again.",
  );

/** Some voucher's balance moved since it was tendered (another till spent it): compare the two reads. */
export function balancesMoved(before: TenderedVouchers, after: TenderedVouchers): boolean {
  const now = new Map(after.offers.map(({ row }) => [row.id, row.balance]));
  return before.offers.some(({ row }) => now.get(row.id) !== row.balance);
}
