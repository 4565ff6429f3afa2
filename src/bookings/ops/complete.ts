import { eq } from "drizzle-orm";
import { creditAccount } from "../../db/queries/accounts";
import { bookings, orders } from "../../db/schema";
import { whereIn } from "../../db/scope";
import { paymentMethodFor } from "../../domain/accounts";
import { validationError } from "../../lib/errors";
import { bookingOrderInvoice } from "../../domain/pricing";
import { changeBooking } from "../change";
import type { BookingDeps } from "../deps";

export interface CompleteInput {
  /** The account the payment is credited to. */
  accountId: string;
  internalNotes?: string | undefined;
  /** Minor units; defaults to the booking's own total. */
  paidAmount?: number | undefined;
  /** The staffer who completes. */
  stafferId?: string | undefined;
}

/**
 * Marks the booking done and credits what was paid (default: the booking's
 * own total) to the account. The booking and its order are both
 * compare-and-set, so two completes (or a complete and a cancel, or two
 * bookings of one cart) never credit twice or leave the order's status stale.
 */
export function completeBooking(deps: BookingDeps, bookingId: string, input: CompleteInput) {
  return changeBooking(
    deps,
    bookingId,
    "complete",
    async (loaded, { scope, now }) => {
      const problems: Record<string, string[]> = {};
      const account = loaded.account;
      if (!account) problems.account_uuid = ["Unknown account."];
      else if (account.locationId !== loaded.booking.locationId) {
        problems.account_uuid = ["The account belongs to another location."];
      }
      if (input.stafferId && !loaded.staffer) problems.staffer_uuid = ["Unknown staffer."];
      if (!account || Object.keys(problems).length > 0) throw validationError(problems);

      const bookingTotal = bookingOrderInvoice({
        order: loaded.order,
        orderServices: loaded.services,
      }).total;
      const paid = input.paidAmount ?? bookingTotal;
      const accountPaidAmount = loaded.order.accountPaidAmount + paid;
      const settled = accountPaidAmount >= bookingOrderInvoice(loaded).total;
      const order = {
        ...loaded.order,
        accountPaidAmount,
        accountId: account.id,
        paymentMethod: paymentMethodFor(account.type),
        status: settled ? ("paid" as const) : loaded.order.status,
        paidAt: settled ? now : loaded.order.paidAt,
      };
      const booking = {
        ...loaded.booking,
        isCompleted: true,
        completedAt: now,
        completedBy: input.stafferId ?? null,
        internalNotes: input.internalNotes ?? loaded.booking.internalNotes,
        updatedAt: now,
      };
      return {
        view: { ...loaded, booking, order },
        event: "booking-completed",
        touchesOrder: true,
        statements: [
          scope.db
            .update(bookings)
            .set({
              isCompleted: true,
              completedAt: now,
              completedBy: booking.completedBy,
              internalNotes: booking.internalNotes,
              updatedAt: now,
            })
            .where(whereIn(scope, bookings, eq(bookings.id, bookingId))),
          scope.db
            .update(orders)
            .set({
              accountPaidAmount,
              accountId: account.id,
              paymentMethod: order.paymentMethod,
              status: order.status,
              paidAt: order.paidAt,
            })
            .where(whereIn(scope, orders, eq(orders.id, loaded.order.id))),
          ...creditAccount(scope, {
            accountId: account.id,
            amount: paid,
            orderId: loaded.order.id,
            bookingId,
            at: now,
          }),
        ],
      };
    },
    { accountId: input.accountId, stafferId: input.stafferId },
  );
}
