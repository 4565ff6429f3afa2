import type { Scope } from "../../db/scope";
import type { Statement } from "../../db/statement";
import { ApiError } from "../../platform/errors";
import { changeOrder } from "../../pos/orders/change";
import { creditAccount } from "../../pos/queries/accounts";
import { stockMoves } from "../../pos/queries/stock";
import { orderSold } from "../../pos/orders/revenue";
import { invoiceOf, voucherValuesOf } from "../../pos/rules";
import { issueVouchers } from "../../pos/vouchers/issue";
import type { PosOrder } from "../../pos/views/pos-order-schema";
import type { SoldUnit } from "../issue";
import { packagesSoldBy } from "../sell";
import { newOnlineAccount, onlinePayReads } from "../queries/order-online";

export interface OnlinePayment {
  /** What the provider took: the order's amount due when its page was made. */
  amount: number;
  /** The card the page saved (a membership renews with it). */
  card: SoldUnit["card"];
  /** The payment's own statements for the same batch (its checkout's guard and close). */
  alongside: Statement[];
}

const notOpen = () => new ApiError("order_not_open", "Only an open order can be paid.");

/**
 * Pays an open POS order with money the provider took, as the till's payment
 * would (vouchers and packages issued, stock out, `order-paid`), but on the
 * location's online account (`online_account`): one batch, led by the order's
 * guard, with the payment's own statements. Refused (the caller gives the
 * money back) when the order is no longer open or now owes another amount.
 */
export function payOrderOnline(
  scope: Scope,
  orderId: string,
  payment: OnlinePayment,
): Promise<PosOrder> {
  return changeOrder(scope, orderId, {
    name: "pay-online",
    gaveUp: notOpen,
    reads: (scope) => onlinePayReads(scope, orderId),
    plan: ({ order, lines }, { now, reads }) => {
      if (order.status !== "open") throw notOpen();
      if (lines.some((l) => l.kind === "service" && l.bookingId !== null))
        throw new ApiError(
          "order_has_booked_services",
          "The order has a service linked to a booking; settle it by completing the booking.",
        );
      const due = invoiceOf({ order, lines }).amount_due;
      if (due !== payment.amount)
        throw new ApiError("order_changed", "The order owes another amount than was paid.");
      const accountId = reads.account?.id ?? crypto.randomUUID();
      const on = { orderId: order.id, bookingId: null, at: now };
      const values = voucherValuesOf({ order, lines });
      const sold = packagesSoldBy(scope, reads.templates, order, lines, values, now, payment.card);
      return {
        event: "order-paid",
        from: "open",
        order: {
          status: "paid",
          accountId,
          paymentMethod: "online_account",
          onlinePaidAmount: order.onlinePaidAmount + payment.amount,
          paidAt: now,
        },
        issues: issueVouchers(scope, order.id, lines, values, now),
        sells: {
          issued: sold.records.map(({ pkg }) => ({
            id: pkg.id,
            orderId: pkg.orderId,
            orderLineId: pkg.orderLineId,
          })),
          statements: sold.statements,
        },
        moves: [
          ...payment.alongside,
          // A location made outside the API may have no online account yet: it gets one now.
          ...(reads.account
            ? []
            : [newOnlineAccount(scope, { id: accountId, locationId: order.locationId, at: now })]),
          ...creditAccount(scope, { accountId, amount: payment.amount, ...on }),
          ...stockMoves(scope, order.locationId, lines, -1),
          ...orderSold(scope, { ...order, paymentMethod: "online_account" }, lines, now),
        ],
      };
    },
  });
}
