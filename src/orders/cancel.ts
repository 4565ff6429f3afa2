import { and, eq, sql } from "drizzle-orm";
import { onceMore, orderStill } from "./still";
import { eventStatement } from "../db/queries/outbox";
import { loadPosOrder } from "../db/queries/pos-orders";
import { orders, promocodeUses } from "../db/schema";
import { type Scope, whereIn } from "../db/scope";
import { ApiError, notFound } from "../lib/errors";
import { rendezvous } from "../lib/failpoints";
import { renderOrder } from "../views/pos-order";
import type { PosOrder } from "../views/pos-order-schema";

const notOpen = () => new ApiError("order_not_open", "Only an open order can be cancelled.");

/**
 * Cancels an open POS order: nothing was paid, so nothing moves but the
 * promocode use it held, which goes back to the code. Compare-and-set on the
 * order's version, like pay: a pay and a cancel at once end as one of them.
 */
export async function cancelPosOrder(scope: Scope, orderId: string): Promise<PosOrder> {
  return onceMore("orders.cancel.guard_refused", () => cancelOnce(scope, orderId), notOpen);
}

async function cancelOnce(scope: Scope, orderId: string): Promise<PosOrder> {
  const { db, workspaceId } = scope;
  const view = await loadPosOrder(scope, orderId);
  if (!view) throw notFound("Order");
  const { order } = view;
  if (order.status !== "open") throw notOpen();
  const now = Date.now();
  const rendered = renderOrder({
    ...view,
    order: { ...order, status: "cancelled", closedAt: now },
  });
  // Any two money writes to orders (pay and cancel, two tills on one voucher) can be made to meet here.
  await rendezvous("orders.money.before_write");
  await db.batch([
    orderStill(scope, order, "open"),
    db
      .update(orders)
      .set({ status: "cancelled", closedAt: now, version: sql`${orders.version} + 1` })
      .where(and(eq(orders.workspaceId, workspaceId), eq(orders.id, order.id))),
    db
      .delete(promocodeUses)
      .where(whereIn(scope, promocodeUses, eq(promocodeUses.orderId, order.id))),
    eventStatement(db, workspaceId, "order-cancelled", rendered),
  ]);
  return rendered;
}
