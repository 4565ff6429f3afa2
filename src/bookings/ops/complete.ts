import type { VoucherRow } from "../../pos/queries/vouchers";
import { nothing } from "../../db/reads";
import { paymentMethodFor } from "../../pos/rules/accounts";
import { bookingOrderInvoice } from "../../pos/rules";
import type { Problem } from "../../platform/rules/problems";
import { InvalidError } from "../../platform/errors";
import { assertAccountChangeFits, assertOrderPaymentFits } from "../../platform/money-limits";
import {
  balancesMoved,
  offeredRead,
  splitTender,
  tenderOffers,
  type VoucherSubject,
  type VoucherOffer,
  voucherBalanceChanged,
} from "../../pos/vouchers/tender";
import { changeBooking } from "../change";
import type { BookingDeps } from "../deps";

/** What a complete can be wrong about: the account, the staffer, the amount, the vouchers. */
export type CompleteSubject =
  { is: "account" } | { is: "staffer" } | { is: "paid amount" } | VoucherSubject;
const ACCOUNT: CompleteSubject = { is: "account" };

export interface CompleteInput {
  /** The account the payment is credited to. */
  accountId: string;
  internalNotes?: string | undefined;
  /** Minor units; defaults to the booking's own total. */
  paidAmount?: number | undefined;
  /** The staffer who completes. */
  stafferId?: string | undefined;
  /** Vouchers that pay first (each up to its amount or balance); the account takes the rest. */
  vouchers?: VoucherOffer[] | undefined;
}

/**
 * Marks the booking done and takes what was paid (default: the booking's own
 * total) from the vouchers offered first, then the account. The booking and
 * its order are both compare-and-set, and each voucher is spent only at the
 * balance read, so two completes (or a complete and a cancel, or two bookings
 * of one cart, or two tills spending one voucher) never pay twice.
 */
export function completeBooking(deps: BookingDeps, bookingId: string, input: CompleteInput) {
  const offers = input.vouchers ?? [];
  return changeBooking<VoucherRow[]>(deps, bookingId, {
    op: "complete",
    refs: { accountId: input.accountId, stafferId: input.stafferId },
    // The offered vouchers, read in the booking's own batch (checked where the plan asks).
    reads: (scope) => (offers.length > 0 ? offeredRead(scope, offers) : nothing([])),
    plan: (loaded, { now, reads: offered, previous }) => {
      const problems: Problem<CompleteSubject>[] = [];
      const account = loaded.account;
      if (!account) problems.push({ about: ACCOUNT, messages: ["Unknown account."] });
      else if (account.locationId !== loaded.booking.locationId) {
        problems.push({ about: ACCOUNT, messages: ["The account belongs to another location."] });
      }
      if (input.stafferId && !loaded.staffer)
        problems.push({ about: { is: "staffer" }, messages: ["Unknown staffer."] });
      if (!account || problems.length > 0) throw new InvalidError(problems);
      const tender = tenderOffers(offers, offered);
      // As in POS pay: a retry after another payment spent one of the vouchers answers 409.
      if (previous && balancesMoved(tenderOffers(offers, previous), tender))
        throw voucherBalanceChanged();

      const orderTotal = bookingOrderInvoice(loaded).total;
      const bookingTotal = bookingOrderInvoice({
        order: loaded.order,
        orderServices: loaded.services,
      }).total;
      const paid = input.paidAmount ?? bookingTotal;
      // Vouchers pay only what the order still owes: stored value spent beyond the bill could
      // not be given back. Whatever else the till took goes to the account, as without vouchers.
      const owed = Math.max(
        0,
        orderTotal - loaded.order.accountPaidAmount - loaded.order.voucherPaidAmount,
      );
      const covered = splitTender(Math.min(paid, owed), tender);
      const split = { ...covered, account: covered.account + paid - Math.min(paid, owed) };
      // Each complete of a cart adds to one order and every payment to one account: sums of
      // many requests, each within its cap, that must still stay exact (below 2^53).
      const paidSoFar = loaded.order.accountPaidAmount + loaded.order.voucherPaidAmount;
      assertOrderPaymentFits(paidSoFar, paid, { is: "paid amount" });
      const credits = split.account > 0 || split.voucher === 0;
      if (credits) assertAccountChangeFits(account.balance, split.account, ACCOUNT);
      const accountPaidAmount = loaded.order.accountPaidAmount + split.account;
      const voucherPaidAmount = loaded.order.voucherPaidAmount + split.voucher;
      const settled = accountPaidAmount + voucherPaidAmount >= orderTotal;
      return {
        event: "booking-completed",
        booking: {
          isCompleted: true,
          completedAt: now,
          completedBy: input.stafferId ?? null,
          internalNotes: input.internalNotes ?? loaded.booking.internalNotes,
        },
        order: {
          accountPaidAmount,
          voucherPaidAmount,
          accountId: account.id,
          paymentMethod: paymentMethodFor(account.type),
          status: settled ? "paid" : loaded.order.status,
          paidAt: settled ? now : loaded.order.paidAt,
        },
        payment: {
          ...(credits ? { credit: { accountId: account.id, amount: split.account } } : {}),
          tender,
          split,
        },
      };
    },
  });
}
