import { and, eq, sql } from "drizzle-orm";
import { onceMore, orderStill } from "./still";
import type { BatchItem } from "drizzle-orm/batch";
import { creditAccount } from "../db/queries/accounts";
import { eventStatement } from "../db/queries/outbox";
import { posOrderReads } from "../db/queries/pos-orders";
import { restoreVoucherPayments, voidIssuedVouchers } from "../db/queries/vouchers";
import { accounts, orders } from "../db/schema";
import { type Scope, whereIn } from "../db/scope";
import { requiresAction } from "../domain/accounts";
import { ApiError, fieldError, notFound } from "../lib/errors";
import { assertAccountChangeFits } from "../lib/money-limits";
import { rendezvous } from "../lib/failpoints";
import { renderOrder } from "../views/pos-order";
import type { PosOrder } from "../views/pos-order-schema";
import { stockMoves } from "./stock";

export interface RefundRequest {
  /** The account the money goes back out of; default: the one the order was paid on. */
  accountId: string | null;
  reason: string | null;
}

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
 * (409 voucher_already_used: that money is gone).
 */
export async function refundPosOrder(
  scope: Scope,
  orderId: string,
  req: RefundRequest,
): Promise<PosOrder> {
  // Fresh state names the reason: already refunded, or a sold voucher spent meanwhile.
  return onceMore(
    "orders.refund.guard_refused",
    () => refundOnce(scope, orderId, req),
    () =>
      new ApiError("order_changed", "The order changed while it was being refunded; try again."),
  );
}

async function refundOnce(scope: Scope, orderId: string, req: RefundRequest): Promise<PosOrder> {
  const { db, workspaceId } = scope;
  const [orderRows, lines, customer, issued, accountRows] = await db.batch([
    ...posOrderReads(scope, orderId),
    db
      .select()
      .from(accounts)
      .where(
        whereIn(
          scope,
          accounts,
          eq(
            accounts.id,
            req.accountId ??
              sql`(select ${orders.accountId} from ${orders} where ${orders.id} = ${orderId})`,
          ),
        ),
      ),
  ]);
  const order = orderRows[0];
  if (!order) throw notFound("Order");
  if (order.status !== "paid") throw notPaid();
  if (issued.some((v) => v.status !== "active" || v.balance < v.initialAmount)) throw used();

  const debit = order.accountPaidAmount;
  const statements: BatchItem<"sqlite">[] = [];
  const now = Date.now();
  const account = accountRows[0];
  // An account named is checked even when nothing goes out of it (as pay does): a typo must not pass.
  if (debit > 0 || req.accountId !== null) {
    if (!account) throw fieldError("account_uuid", "Unknown account.");
    if (account.locationId !== order.locationId)
      throw fieldError("account_uuid", "The account belongs to another branch.");
    if (requiresAction(account.type))
      throw fieldError("account_uuid", "Refund from a cash or card account.");
  }
  if (debit > 0 && account) {
    assertAccountChangeFits(account.balance, -debit);
    statements.push(
      ...creditAccount(scope, {
        accountId: account.id,
        amount: -debit,
        orderId,
        bookingId: null,
        at: now,
      }),
    );
  }
  const refunded = {
    ...order,
    status: "refunded" as const,
    isReverted: true,
    closedAt: now,
    refundReason: req.reason,
  };
  const rendered = renderOrder({
    order: refunded,
    lines,
    customer: customer[0] ?? null,
    issued,
  });
  // Any two money writes to orders (pay and cancel, two tills on one voucher) can be made to meet here.
  await rendezvous("orders.money.before_write");
  await db.batch([
    orderStill(scope, order, "paid"),
    ...voidIssuedVouchers(scope, order.id),
    db
      .update(orders)
      .set({
        status: "refunded",
        isReverted: true,
        closedAt: now,
        refundReason: req.reason,
        version: sql`${orders.version} + 1`,
      })
      .where(and(eq(orders.workspaceId, workspaceId), eq(orders.id, order.id))),
    ...statements,
    ...restoreVoucherPayments(scope, order.id, now),
    ...stockMoves(scope, order.locationId, lines, 1),
    eventStatement(db, workspaceId, "order-refunded", rendered),
  ]);
  return rendered;
}
