import { eq, sql } from "drizzle-orm";
import type { Context } from "hono";
import { creditAccount } from "../../db/queries/accounts";
import { bookings, orders } from "../../db/schema";
import { whereIn } from "../../db/scope";
import { paymentMethodFor } from "../../domain/accounts";
import type { AppEnv } from "../../env";
import { fieldError, validationError } from "../../lib/errors";
import { bookingOrderInvoice } from "../../routes/public/bookings/render";
import { bookingOperation } from "../context";

export interface CompleteInput {
  account_uuid: string;
  internal_notes?: string | undefined;
  paid_amount?: number | undefined;
  staffer_uuid?: string | undefined;
}

/** Marks the booking done and credits what was paid (default: the booking's own total) to the account. */
export async function completeBooking(c: Context<AppEnv>, bookingId: string, input: CompleteInput) {
  const op = await bookingOperation(c, bookingId, "complete", {
    accountId: input.account_uuid,
    stafferId: input.staffer_uuid,
  });
  const { loaded, scope } = op;
  const problems: Record<string, string[]> = {};
  if (!loaded.account) problems.account_uuid = ["Unknown account."];
  else if (loaded.account.locationId !== loaded.booking.locationId) {
    problems.account_uuid = ["The account belongs to another location."];
  }
  if (input.staffer_uuid && !loaded.staffer) problems.staffer_uuid = ["Unknown staffer."];
  if (Object.keys(problems).length > 0) throw validationError(problems);
  const account = loaded.account;
  if (!account) throw fieldError("account_uuid", "Unknown account.");

  const bookingTotal = bookingOrderInvoice({
    order: loaded.order,
    orderServices: loaded.services,
  }).total;
  const paid = input.paid_amount ?? bookingTotal;
  const now = Date.now();
  const accountPaidAmount = loaded.order.accountPaidAmount + paid;
  const orderTotal = bookingOrderInvoice(loaded).total;
  const order = {
    ...loaded.order,
    accountPaidAmount,
    accountId: account.id,
    paymentMethod: paymentMethodFor(account.type),
    status: accountPaidAmount >= orderTotal ? ("paid" as const) : loaded.order.status,
    paidAt: accountPaidAmount >= orderTotal ? now : loaded.order.paidAt,
  };
  const booking = {
    ...loaded.booking,
    isCompleted: true,
    completedAt: now,
    completedBy: input.staffer_uuid ?? null,
    internalNotes: input.internal_notes ?? loaded.booking.internalNotes,
    updatedAt: now,
  };
  return op.commit({ ...loaded, booking, order }, "booking-completed", [
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
        accountPaidAmount: sql`${orders.accountPaidAmount} + ${paid}`,
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
  ]);
}
