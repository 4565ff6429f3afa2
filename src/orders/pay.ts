import { and, eq, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { isGuardFailure } from "../db/constraints";
import { atVersion, guard } from "../db/guards";
import { creditAccount } from "../db/queries/accounts";
import { eventStatement } from "../db/queries/outbox";
import { type PosOrderView, posOrderReads } from "../db/queries/pos-orders";
import { accounts, goodStocks, orders } from "../db/schema";
import { type Scope, whereIn } from "../db/scope";
import { paymentMethodFor, requiresAction } from "../domain/accounts";
import { invoiceOf } from "../domain/pricing";
import { ApiError, fieldError, notFound } from "../lib/errors";
import { probe, rendezvous } from "../lib/failpoints";
import { renderOrder } from "../views/pos-order";
import type { PosOrder } from "../views/pos-order-schema";

const notOpen = () => new ApiError("order_not_open", "Only an open order can be paid.");

/**
 * Settles an open POS order in full on a cash or card account of its branch.
 * One batch marks it paid, credits the account, takes the goods out of the
 * branch's stock and records `order-paid`; a guard at its head makes a second,
 * concurrent payment roll back whole instead of paying twice.
 *
 * Stock may go below zero: the goods are already in the customer's hands, so
 * refusing the sale would only hide a miscount, which the negative stock shows.
 */
export async function payPosOrder(
  scope: Scope,
  orderId: string,
  accountId: string,
): Promise<PosOrder> {
  try {
    return await payOnce(scope, orderId, accountId);
  } catch (error) {
    // Lost a compare-and-set: try once more on fresh state, which is usually "already paid".
    if (!isGuardFailure(error)) throw error;
    probe("orders.pay.guard_refused");
  }
  return payOnce(scope, orderId, accountId).catch((e: unknown) => {
    throw isGuardFailure(e) ? notOpen() : e;
  });
}

async function payOnce(scope: Scope, orderId: string, accountId: string): Promise<PosOrder> {
  const { db, workspaceId } = scope;
  const [orderRows, lines, customer, accountRows] = await db.batch([
    ...posOrderReads(scope, orderId),
    db
      .select()
      .from(accounts)
      .where(whereIn(scope, accounts, eq(accounts.id, accountId))),
  ]);
  const order = orderRows[0];
  if (!order) throw notFound("Order");
  if (order.status !== "open") throw notOpen();
  const account = accountRows[0];
  if (!account) throw fieldError("account_uuid", "Unknown account.");
  if (account.locationId !== order.locationId)
    throw fieldError("account_uuid", "The account belongs to another branch.");
  if (requiresAction(account.type))
    throw new ApiError(
      "account_requires_action",
      "This account takes payments out of band (QR or online); pay on a cash or card account.",
      { errors: { account_uuid: ["The account needs an out-of-band payment action."] } },
    );
  if (lines.some((l) => l.kind === "service" && l.bookingId !== null))
    throw new ApiError(
      "order_has_booked_services",
      "The order has a service linked to a booking; settle it by completing the booking.",
    );

  const amount = invoiceOf({ order, lines }).amount_due;
  const now = Date.now();
  const paid: PosOrderView = {
    order: {
      ...order,
      status: "paid",
      accountId: account.id,
      paymentMethod: paymentMethodFor(account.type),
      accountPaidAmount: order.accountPaidAmount + amount,
      paidAt: now,
    },
    lines,
    customer: customer[0] ?? null,
  };
  const rendered = renderOrder(paid);
  const sold = new Map<string, number>();
  for (const l of lines)
    if (l.kind === "good") sold.set(l.refId, (sold.get(l.refId) ?? 0) + l.quantity);

  const statements: BatchItem<"sqlite">[] = [
    db
      .update(orders)
      .set({
        status: "paid",
        accountId: account.id,
        paymentMethod: paid.order.paymentMethod,
        accountPaidAmount: paid.order.accountPaidAmount,
        paidAt: now,
        version: sql`${orders.version} + 1`,
      })
      .where(and(eq(orders.workspaceId, workspaceId), eq(orders.id, order.id))),
    ...creditAccount(scope, {
      accountId: account.id,
      amount,
      orderId: order.id,
      bookingId: null,
      at: now,
    }),
    ...[...sold].map(([goodId, quantity]) =>
      db
        .insert(goodStocks)
        .values({
          workspaceId,
          goodId,
          locationId: order.locationId,
          quantity: -quantity,
          unitPrice: 0,
        })
        .onConflictDoUpdate({
          target: [goodStocks.goodId, goodStocks.locationId],
          set: { quantity: sql`${goodStocks.quantity} - ${quantity}` },
        }),
    ),
    eventStatement(db, workspaceId, "order-paid", rendered),
  ];
  await rendezvous("orders.pay.before_write");
  await db.batch([
    guard(
      scope,
      and(
        atVersion(orders, order.id, order.version),
        sql`exists (select 1 from ${orders} where ${orders.id} = ${order.id} and ${orders.status} = 'open')`,
      ) ?? sql`0`,
    ),
    ...statements,
  ]);
  return rendered;
}
