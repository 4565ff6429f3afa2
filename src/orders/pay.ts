import { and, eq, sql } from "drizzle-orm";
import { onceMore, orderStill } from "./still";
import type { BatchItem } from "drizzle-orm/batch";
import { creditAccount } from "../db/queries/accounts";
import { eventStatement } from "../db/queries/outbox";
import { type PosOrderView, posOrderReads } from "../db/queries/pos-orders";
import { accounts, orders } from "../db/schema";
import { type Scope, whereIn } from "../db/scope";
import { paymentMethodFor, requiresAction } from "../domain/accounts";
import { invoiceOf, MAX_VOUCHERS_PER_ORDER, voucherValuesOf } from "../domain/pricing";
import { ApiError, fieldError, notFound } from "../lib/errors";
import { assertAccountChangeFits } from "../lib/money-limits";
import { rendezvous } from "../lib/failpoints";
import { renderOrder } from "../views/pos-order";
import type { PosOrder } from "../views/pos-order-schema";
import { issueVouchers } from "../vouchers/issue";
import {
  balancesMoved,
  readOffered,
  spendTender,
  splitTender,
  type TenderedVouchers,
  tenderVouchers,
  type VoucherOffer,
  voucherBalanceChanged,
} from "../vouchers/tender";
import { tooManyVouchers, voucherUnits } from "./resolve";
import { stockMoves } from "./stock";

export interface PayRequest {
  /** The cash or card account that takes what the vouchers leave; required when anything is left. */
  accountId: string | null;
  /** Spent first, in this order. */
  vouchers: VoucherOffer[];
}

const notOpen = () => new ApiError("order_not_open", "Only an open order can be paid.");

/**
 * Settles an open POS order in full: the vouchers offered first, then the
 * account for the rest. One batch marks it paid, spends the vouchers, credits
 * the account, issues the vouchers it sold, takes the goods out of the
 * branch's stock and records `order-paid`. Guards at its head (the order's
 * version, each voucher's balance) make a concurrent payment of the same
 * order, or of the same voucher, roll back whole instead of paying twice.
 *
 * The loser retries once on fresh state, which is usually "already paid"; if
 * a voucher it offered was spent meanwhile it answers 409 instead, rather
 * than quietly charging the account what the voucher no longer covers.
 *
 * Stock may go below zero: the goods are already in the customer's hands, so
 * refusing the sale would only hide a miscount, which the negative stock shows.
 */
export async function payPosOrder(
  scope: Scope,
  orderId: string,
  req: PayRequest,
): Promise<PosOrder> {
  let first: TenderedVouchers | null = null;
  return onceMore(
    "orders.pay.guard_refused",
    (retry) =>
      payOnce(scope, orderId, req, (t) => {
        if (!retry) first = t;
        else if (first && balancesMoved(first, t)) throw voucherBalanceChanged();
      }),
    notOpen,
  );
}

async function payOnce(
  scope: Scope,
  orderId: string,
  req: PayRequest,
  tendered: (t: TenderedVouchers) => void,
): Promise<PosOrder> {
  const { db, workspaceId } = scope;
  const [orderRows, lines, customer, issuedBefore, accountRows, voucherRows] = await db.batch([
    ...posOrderReads(scope, orderId),
    db
      .select()
      .from(accounts)
      .where(whereIn(scope, accounts, eq(accounts.id, req.accountId ?? ""))),
    readOffered(scope, req.vouchers),
  ]);
  const order = orderRows[0];
  if (!order) throw notFound("Order");
  if (order.status !== "open") throw notOpen();
  if (lines.some((l) => l.kind === "service" && l.bookingId !== null))
    throw new ApiError(
      "order_has_booked_services",
      "The order has a service linked to a booking; settle it by completing the booking.",
    );
  // Orders opened before the cap existed may still exceed it.
  if (voucherUnits(lines) > MAX_VOUCHERS_PER_ORDER) throw fieldError("vouchers", tooManyVouchers);
  const account = accountRows[0];
  if (req.accountId !== null) {
    if (!account) throw fieldError("account_uuid", "Unknown account.");
    if (account.locationId !== order.locationId)
      throw fieldError("account_uuid", "The account belongs to another branch.");
    if (requiresAction(account.type))
      throw new ApiError(
        "account_requires_action",
        "This account takes payments out of band (QR or online); pay on a cash or card account.",
        { errors: { account_uuid: ["The account needs an out-of-band payment action."] } },
      );
  }
  const tender = tenderVouchers(req.vouchers, voucherRows);
  tendered(tender);

  const split = splitTender(invoiceOf({ order, lines }).amount_due, tender);
  // The account is the payer unless the vouchers paid it all (a free order still names its till).
  const payer = split.account > 0 || split.voucher === 0 ? account : undefined;
  if (split.account > 0 && !payer)
    throw fieldError(
      "account_uuid",
      `Required: ${split.account} is left to pay after the vouchers.`,
    );
  if (payer) assertAccountChangeFits(payer.balance, split.account);
  const now = Date.now();
  const issued = issueVouchers(scope, order.id, lines, voucherValuesOf({ order, lines }), now);
  const paidOrder = {
    ...order,
    status: "paid" as const,
    accountId: payer?.id ?? null,
    paymentMethod: payer ? paymentMethodFor(payer.type) : split.voucher > 0 ? "voucher" : null,
    accountPaidAmount: order.accountPaidAmount + split.account,
    voucherPaidAmount: order.voucherPaidAmount + split.voucher,
    paidAt: now,
  };
  const paid: PosOrderView = {
    order: paidOrder,
    lines,
    customer: customer[0] ?? null,
    issued: [...issuedBefore, ...issued.rows],
  };
  const rendered = renderOrder(paid);

  const statements: BatchItem<"sqlite">[] = [
    db
      .update(orders)
      .set({
        status: "paid",
        accountId: paidOrder.accountId,
        paymentMethod: paidOrder.paymentMethod,
        accountPaidAmount: paidOrder.accountPaidAmount,
        voucherPaidAmount: paidOrder.voucherPaidAmount,
        paidAt: now,
        version: sql`${orders.version} + 1`,
      })
      .where(and(eq(orders.workspaceId, workspaceId), eq(orders.id, order.id))),
    ...(payer
      ? creditAccount(scope, {
          accountId: payer.id,
          amount: split.account,
          orderId: order.id,
          bookingId: null,
          at: now,
        })
      : []),
    ...spendTender(scope, tender, split, { orderId: order.id, bookingId: null, at: now }),
    ...issued.statements,
    ...stockMoves(scope, order.locationId, lines, -1),
    eventStatement(db, workspaceId, "order-paid", rendered),
  ];
  await rendezvous("orders.pay.before_write");
  // Any two money writes to orders (pay and cancel, two tills on one voucher) can be made to meet here.
  await rendezvous("orders.money.before_write");
  await db.batch([orderStill(scope, order, "open"), ...statements]);
  return rendered;
}
