import { accountPaidOn, accountRead, creditAccount } from "../queries/accounts";
import { stockMoves } from "../queries/stock";
import { restoreVoucherPayments, voidIssuedVouchers } from "../queries/vouchers";
import type { Scope } from "../../db/scope";
import { requiresAction } from "../rules/accounts";
import { ApiError, invalid } from "../../platform/errors";
import { assertAccountChangeFits } from "../../platform/money-limits";
import type { PosOrder } from "../views/pos-order-schema";
import { named } from "../../db/reads";
import { onlineRefunds } from "../online-refunds";
import { changeOrder } from "./change";
import { orderRefunded } from "./revenue";

export interface RefundRequest {
  /** The account the money goes back out of; default: the one the order was paid on. */
  accountId: string | null;
  reason: string | null;
}

/** What a refund can be wrong about: the account the money goes back out of. */
export type RefundSubject = { is: "account" };

const notPaid = () => new ApiError("order_not_paid", "Only a paid order can be refunded.");
const used = () =>
  new ApiError(
    "voucher_already_used",
    "A voucher this order sold has been spent; the sale can no longer be refunded.",
  );

/**
 * Refunds a paid POS order, undoing everything paying it did, in one batch
 * guarded by the order's version: the account is debited what it received,
 * each voucher that paid gets its part back, the goods return to stock, and
 * the vouchers the order sold are voided, unless one of them has been spent
 * (409 voucher_already_used: that money is gone), and so are the packages it
 * sold, unless one of them was used or is held by a booking (409
 * package_already_used, checked again inside the batch). Money the order was
 * paid online goes back at the provider: the batch debits the online account
 * it went to and records the provider refund as pending; the route sends it
 * once the batch has committed (`onlineRefunds().send`).
 */
export function refundPosOrder(
  scope: Scope,
  orderId: string,
  req: RefundRequest,
): Promise<PosOrder> {
  return changeOrder(scope, orderId, {
    name: "refund",
    // Fresh state names the reason: already refunded, a sold voucher spent or package used meanwhile.
    gaveUp: () =>
      new ApiError("order_changed", "The order changed while it was being refunded; try again."),
    reads: (scope) =>
      named({
        account: accountRead(scope, req.accountId ?? accountPaidOn(orderId)),
        paidOn: accountRead(scope, accountPaidOn(orderId)),
        online: onlineRefunds().paidWith(scope, orderId),
      }),
    plan: ({ order, lines, issued, sale }, { now, reads: { account, paidOn, online } }) => {
      if (order.status !== "paid") throw notPaid();
      if (issued.some((v) => v.status !== "active" || v.balance < v.initialAmount)) throw used();
      // Throws 409 package_already_used when a package it sold is touched; its guard holds at write time.
      const voided = sale.voidAll(now);
      const debit = order.accountPaidAmount;
      // An account named is checked even when nothing goes out of it (as pay does): a typo must not pass.
      if (debit > 0 || req.accountId !== null) {
        if (!account) throw invalid({ is: "account" }, "Unknown account.");
        if (account.locationId !== order.locationId)
          throw invalid({ is: "account" }, "The account belongs to another branch.");
        if (requiresAction(account.type))
          throw invalid({ is: "account" }, "Refund from a cash or card account.");
      }
      if (debit > 0 && account) assertAccountChangeFits(account.balance, -debit, { is: "account" });
      // The online part leaves the account it was paid on (the location's online account).
      const onlineDebit = online && paidOn ? online.amount : 0;
      if (online && paidOn)
        assertAccountChangeFits(paidOn.balance, -onlineDebit, { is: "account" });
      return {
        event: "order-refunded",
        from: "paid",
        order: { status: "refunded", isReverted: true, closedAt: now, refundReason: req.reason },
        moves: [
          ...voidIssuedVouchers(scope, order.id),
          ...voided,
          ...(debit > 0 && account
            ? creditAccount(scope, {
                accountId: account.id,
                amount: -debit,
                orderId: order.id,
                bookingId: null,
                at: now,
              })
            : []),
          ...(online && paidOn
            ? creditAccount(scope, {
                accountId: paidOn.id,
                amount: -onlineDebit,
                orderId: order.id,
                bookingId: null,
                at: now,
              })
            : []),
          ...(online ? onlineRefunds().record(scope, online, now) : []),
          ...restoreVoucherPayments(scope, order.id, now),
          ...stockMoves(scope, order.locationId, lines, 1),
          ...orderRefunded(scope, order, lines, now),
        ],
      };
    },
  });
}
