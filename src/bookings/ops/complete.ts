import type { VoucherRow } from "../../pos/queries/vouchers";
import { named, nothing } from "../../db/reads";
import { paidOnlineRead, type PaidOnline } from "../queries/paid-online";
import { paymentMethodFor } from "../../pos/rules/accounts";
import { bookingOrderInvoice, bookingSaleLines } from "../../pos/rules";
import { completedEntries, saleEntries } from "../../reports/rules/revenue-entries";
import type { Problem } from "../../platform/rules/problems";
import { InvalidError, invalid } from "../../platform/errors";
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
  /** The account the payment is credited to; may be left out when it would take nothing. */
  accountId?: string | undefined;
  internalNotes?: string | undefined;
  /** Minor units; defaults to what is still due: the booking's own total less what was paid online for it. */
  paidAmount?: number | undefined;
  /** The staffer who completes. */
  stafferId?: string | undefined;
  /** Vouchers that pay first (each up to its amount or balance); the account takes the rest. */
  vouchers?: VoucherOffer[] | undefined;
}

interface CompleteReads {
  offered: VoucherRow[];
  online: PaidOnline;
}

/**
 * Marks the booking done and takes what was paid (default: what is still
 * due, the booking's own total less what its customer paid online) from the
 * vouchers offered first, then the account. What was paid online (kept after
 * refunds, already on the location's online account) counts towards the
 * order: `online_paid_amount`, in its amount paid. A booking paid in full
 * online completes without an account. The booking and its order are both
 * compare-and-set, and each voucher is spent only at the balance read, so
 * two completes (or a complete and a cancel, or two bookings of one cart, or
 * two tills spending one voucher) never pay twice.
 */
export function completeBooking(deps: BookingDeps, bookingId: string, input: CompleteInput) {
  const offers = input.vouchers ?? [];
  return changeBooking<CompleteReads>(deps, bookingId, {
    op: "complete",
    refs: { accountId: input.accountId, stafferId: input.stafferId },
    // The offered vouchers and the money paid online, read in the booking's own batch.
    reads: (scope) =>
      named({
        offered: offers.length > 0 ? offeredRead(scope, offers) : nothing<VoucherRow[]>([]),
        online: paidOnlineRead(scope, bookingId),
      }),
    plan: (loaded, { now, reads: { offered, online }, previous }) => {
      const problems: Problem<CompleteSubject>[] = [];
      const account = loaded.account;
      if (input.accountId !== undefined && !account)
        problems.push({ about: ACCOUNT, messages: ["Unknown account."] });
      else if (account && account.locationId !== loaded.booking.locationId) {
        problems.push({ about: ACCOUNT, messages: ["The account belongs to another location."] });
      }
      if (input.stafferId && !loaded.staffer)
        problems.push({ about: { is: "staffer" }, messages: ["Unknown staffer."] });
      if (problems.length > 0) throw new InvalidError(problems);
      const tender = tenderOffers(offers, offered);
      // As in POS pay: a retry after another payment spent one of the vouchers answers 409.
      if (previous && balancesMoved(tenderOffers(offers, previous.offered), tender))
        throw voucherBalanceChanged();

      const orderTotal = bookingOrderInvoice(loaded).total;
      const bookingTotal = bookingOrderInvoice({
        order: loaded.order,
        orderServices: loaded.services,
      }).total;
      // The booking's money paid online joins the order now (a cart's order: each booking's own).
      const paidOnline = online.paidOnline;
      const onlinePaidAmount = loaded.order.onlinePaidAmount + paidOnline;
      const paid = input.paidAmount ?? Math.max(0, bookingTotal - paidOnline);
      // Vouchers pay only what the order still owes: stored value spent beyond the bill could
      // not be given back. Whatever else the till took goes to the account, as without vouchers.
      const owed = Math.max(
        0,
        orderTotal -
          loaded.order.accountPaidAmount -
          loaded.order.voucherPaidAmount -
          onlinePaidAmount,
      );
      const covered = splitTender(Math.min(paid, owed), tender);
      const split = { ...covered, account: covered.account + paid - Math.min(paid, owed) };
      // Each complete of a cart adds to one order and every payment to one account: sums of
      // many requests, each within its cap, that must still stay exact (below 2^53).
      const paidSoFar =
        loaded.order.accountPaidAmount + loaded.order.voucherPaidAmount + onlinePaidAmount;
      assertOrderPaymentFits(paidSoFar, paid, { is: "paid amount" });
      // Without an account the till may take nothing: it is needed once anything is left for it.
      if (!account && split.account > 0)
        throw invalid(
          ACCOUNT,
          "Required: the paid amount leaves something for an account to take (only a booking whose customer paid everything online, or whose vouchers pay it all, completes without one).",
        );
      // The online account holds only what the provider moved (booked when it moved it).
      if (account?.type === "online" && split.account > 0)
        throw invalid(
          ACCOUNT,
          "The online account takes only money paid through the payment provider: name the account the till took this on.",
        );
      const credits = account !== null && (split.account > 0 || split.voucher === 0);
      if (account && credits) assertAccountChangeFits(account.balance, split.account, ACCOUNT);
      const accountPaidAmount = loaded.order.accountPaidAmount + split.account;
      const voucherPaidAmount = loaded.order.voucherPaidAmount + split.voucher;
      const settled = accountPaidAmount + voucherPaidAmount + onlinePaidAmount >= orderTotal;
      // The order's sale counts once, when it becomes paid; a later complete of its cart keeps that time.
      const settles = settled && loaded.order.status !== "paid";
      // This complete's till: the account it used; with none, online when money came that way.
      const paidOn = account
        ? { accountId: account.id, paymentMethod: paymentMethodFor(account.type) }
        : paidOnline > 0 && online.onlineAccountId
          ? { accountId: online.onlineAccountId, paymentMethod: paymentMethodFor("online") }
          : { accountId: loaded.order.accountId, paymentMethod: loaded.order.paymentMethod };
      return {
        event: "booking-completed",
        booking: {
          isCompleted: true,
          completedAt: now,
          completedBy: input.stafferId ?? null,
          internalNotes: input.internalNotes ?? loaded.booking.internalNotes,
          // Where the report counts this completion (a cart's bookings may go through two tills).
          completedPaymentMethod: paidOn.paymentMethod,
        },
        order: {
          accountPaidAmount,
          voucherPaidAmount,
          onlinePaidAmount,
          // An order already paid keeps the method it was settled with (its sale counted there).
          ...(loaded.order.status === "paid" ? {} : paidOn),
          status: settled ? "paid" : loaded.order.status,
          paidAt: settles ? now : loaded.order.paidAt,
        },
        revenue: [
          ...completedEntries(loaded.services, paidOn.paymentMethod),
          // The whole order's sale (every service its invoice prices), when this complete settles it.
          ...(settles
            ? saleEntries(bookingSaleLines(loaded.orderServices), paidOn.paymentMethod)
            : []),
        ],
        payment: {
          ...(account && credits
            ? { credit: { accountId: account.id, amount: split.account } }
            : {}),
          tender,
          split,
        },
      };
    },
  });
}
