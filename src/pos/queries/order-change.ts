import { count, eq, sql } from "drizzle-orm";
import { guard } from "../../db/guards";
import { orders, promocodeUses } from "../../db/schema";
import { type Scope, whereIn } from "../../db/scope";
import type { OrderRow } from "./orders";

/** Columns a change may set on an order (its version moves by itself). */
export type OrderPatch = Partial<Omit<OrderRow, "id" | "workspaceId" | "version">>;

/**
 * The first statement of every change to an order: it is still at the
 * version read and in `status`, or the whole batch rolls back (two tills,
 * a pay and a cancel, two refunds: one of them loses here).
 */
export const orderStill = (
  scope: Scope,
  order: { id: string; version: number },
  status: OrderRow["status"],
) =>
  guard(
    scope,
    sql`exists (select 1 from ${orders} where ${orders.id} = ${order.id} and ${orders.version} = ${order.version} and ${orders.status} = ${status})`,
  );

/** The order's one UPDATE: the change's columns and its version bumped. */
export const updateOrder = (scope: Scope, id: string, patch: OrderPatch) =>
  scope.db
    .update(orders)
    .set({ ...patch, version: sql`${orders.version} + 1` })
    .where(whereIn(scope, orders, eq(orders.id, id)));

/** Gives the promocode use an order had back to its code (a cancelled order). */
export const releasePromocodeUse = (scope: Scope, orderId: string) =>
  scope.db
    .delete(promocodeUses)
    .where(whereIn(scope, promocodeUses, eq(promocodeUses.orderId, orderId)));

/**
 * A new order's use of a promocode; with a cap on uses, guarded so that two
 * tills racing for its last use cannot both commit.
 */
export function takePromocodeUse(
  scope: Scope,
  use: {
    promocodeId: string;
    maxUses: number | null;
    orderId: string;
    bookingId: string | null;
    at: number;
  },
) {
  const uses = scope.db
    .select({ n: count() })
    .from(promocodeUses)
    .where(eq(promocodeUses.promocodeId, use.promocodeId));
  return [
    ...(use.maxUses !== null ? [guard(scope, sql`(${uses}) < ${use.maxUses}`)] : []),
    scope.db.insert(promocodeUses).values({
      id: crypto.randomUUID(),
      workspaceId: scope.workspaceId,
      promocodeId: use.promocodeId,
      orderId: use.orderId,
      bookingId: use.bookingId,
      createdAt: use.at,
    }),
  ];
}
