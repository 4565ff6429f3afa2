import { sql } from "drizzle-orm";
import { insertComputedRows } from "../../db/bounded";
import type { Database } from "../../db/client";
import type { Statement } from "../../db/statement";
import { orders, workspaceCounters } from "../../db/schema";

export type OrderRow = typeof orders.$inferSelect;

/**
 * A new open order with nothing discounted, priced or paid yet; callers set
 * what differs. `orderNumber` is a placeholder until `orderInsert` runs.
 */
export function newOrderRow(
  init: Pick<OrderRow, "workspaceId" | "kind" | "locationId" | "stafferId" | "customerId"> &
    Partial<OrderRow>,
): OrderRow {
  return {
    id: crypto.randomUUID(),
    status: "open",
    orderNumber: 0,
    isReverted: false,
    discountAmount: 0,
    discountMode: null,
    discountPercent: null,
    promocode: null,
    promocodeDiscountAmount: null,
    subtotal: 0,
    taxTotal: 0,
    total: 0,
    accountPaidAmount: 0,
    voucherPaidAmount: 0,
    onlinePaidAmount: 0,
    accountId: null,
    paymentMethod: null,
    comment: null,
    description: null,
    invoiceNote: null,
    createdAt: Date.now(),
    paidAt: null,
    closedAt: null,
    refundReason: null,
    version: 0,
    ...init,
  };
}

/**
 * The two batch statements that write an order: bump the workspace's order
 * sequence, then insert the order numbered with the bumped value (returned),
 * so numbers stay unique and increasing under races.
 */
export function orderInsert(db: Database, order: OrderRow) {
  const { workspaceId } = order;
  return [
    db
      .insert(workspaceCounters)
      .values({ workspaceId, name: "order_number", value: 1 })
      .onConflictDoUpdate({
        target: [workspaceCounters.workspaceId, workspaceCounters.name],
        set: { value: sql`${workspaceCounters.value} + 1` },
      }),
    db
      .insert(orders)
      .values({ ...order, orderNumber: orderNumberSql(workspaceId) })
      .returning({ orderNumber: orders.orderNumber }),
  ] as const;
}

/**
 * Several orders of one workspace in a fixed number of statements (a
 * series: one order per visit): the sequence is bumped by their count once,
 * and each order takes the next number in the order given.
 */
export function ordersInsert(db: Database, rows: OrderRow[]): Statement[] {
  const first = rows[0];
  if (!first) return [];
  const { workspaceId } = first;
  const count = rows.length;
  return [
    db
      .insert(workspaceCounters)
      .values({ workspaceId, name: "order_number", value: count })
      .onConflictDoUpdate({
        target: [workspaceCounters.workspaceId, workspaceCounters.name],
        set: { value: sql`${workspaceCounters.value} + ${count}` },
      }),
    ...insertComputedRows(db, orders, rows, {
      orderNumber: (position) => sql`${orderNumberSql(workspaceId)} - ${count - 1} + ${position}`,
    }),
  ];
}

/** The workspace's current order number, for other statements of the same batch. */
export const orderNumberSql = (workspaceId: string) =>
  sql<number>`(select ${workspaceCounters.value} from ${workspaceCounters} where ${workspaceCounters.workspaceId} = ${workspaceId} and ${workspaceCounters.name} = 'order_number')`;
