import { count, desc, eq, gte, lte, sql } from "drizzle-orm";
import { inSubquery } from "../../db/bounded";
import type { PageRequest } from "../../platform/pagination";
import { customers, orderLines, orders, vouchers } from "../../db/schema";
import { named, read, readTogether } from "../../db/reads";
import { type Scope, whereIn } from "../../db/scope";
import { type IssuedPackage, packageLines } from "../package-lines";
import { type VoucherRow, vouchersIssuedBy } from "./vouchers";

export type OrderRow = typeof orders.$inferSelect;
export type OrderLineRow = typeof orderLines.$inferSelect;
export type CustomerRow = typeof customers.$inferSelect;

/** The four reads that make up a POS order, to be batched with whatever else a request needs. */
export function posOrderReads(scope: Scope, orderId: string) {
  const { db } = scope;
  return [
    db
      .select()
      .from(orders)
      .where(whereIn(scope, orders, eq(orders.id, orderId), eq(orders.kind, "pos"))),
    db
      .select()
      .from(orderLines)
      .where(whereIn(scope, orderLines, eq(orderLines.orderId, orderId)))
      .orderBy(orderLines.position),
    db
      .select()
      .from(customers)
      .where(
        whereIn(
          scope,
          customers,
          inSubquery(
            customers.id,
            db.select({ id: orders.customerId }).from(orders).where(eq(orders.id, orderId)),
          ),
        ),
      ),
    vouchersIssuedBy(scope, orderId),
  ] as const;
}

export interface PosOrderRecord {
  order: OrderRow;
  lines: OrderLineRow[];
  customer: CustomerRow | null;
  /** The vouchers the order issued when it was paid (none while open). */
  issued?: Pick<VoucherRow, "orderLineId" | "code">[];
  /** The customer packages the order issued when it was paid (none while open). */
  packages?: IssuedPackage[];
}

/**
 * A POS order as a read to run beside others; null when it is not this
 * workspace's. `sale` is its packages: what it issued, and how paying or
 * refunding it issues or voids them.
 */
export function posOrderRead(scope: Scope, orderId: string) {
  const both = named({
    own: read(posOrderReads(scope, orderId), ([order, lines, customer, issued]) => {
      const row = order[0];
      return row ? { order: row, lines, customer: customer[0] ?? null, issued } : null;
    }),
    sale: packageLines().ofOrder(scope, orderId),
  });
  return {
    statements: both.statements,
    parse: (rows: readonly unknown[]) => {
      const { own, sale } = both.parse(rows);
      return own ? { ...own, packages: sale.issued, sale } : null;
    },
  };
}

export type LoadedPosOrder = NonNullable<ReturnType<ReturnType<typeof posOrderRead>["parse"]>>;

export async function loadPosOrder(scope: Scope, orderId: string): Promise<PosOrderRecord | null> {
  return (await readTogether(scope.db, { order: posOrderRead(scope, orderId) })).order;
}

export interface OrderFilters {
  status?: OrderRow["status"] | undefined;
  locationId?: string | undefined;
  sellerId?: string | undefined;
  customerId?: string | undefined;
  createdFrom?: number | undefined;
  createdTo?: number | undefined;
}

/** A page of POS orders, newest first, with their lines, customers and what they issued: one round trip. */
export async function listPosOrders(scope: Scope, f: OrderFilters, page: PageRequest) {
  const { db } = scope;
  const where = whereIn(
    scope,
    orders,
    eq(orders.kind, "pos"),
    f.status ? eq(orders.status, f.status) : undefined,
    f.locationId ? eq(orders.locationId, f.locationId) : undefined,
    f.sellerId ? eq(orders.stafferId, f.sellerId) : undefined,
    f.customerId ? eq(orders.customerId, f.customerId) : undefined,
    f.createdFrom !== undefined ? gte(orders.createdAt, f.createdFrom) : undefined,
    f.createdTo !== undefined ? lte(orders.createdAt, f.createdTo) : undefined,
  );
  // Order numbers only grow, so they break ties between orders of the same millisecond.
  const newestFirst = [desc(orders.createdAt), desc(orders.orderNumber)];
  const pageOf = (column: typeof orders.id | typeof orders.customerId) =>
    db
      .select({ id: column })
      .from(orders)
      .where(where)
      .orderBy(...newestFirst)
      .limit(page.perPage)
      .offset(page.offset);
  const sold = packageLines().issuedBy(scope, pageOf(orders.id));
  const [totals, rows, lines, people, issued, ...soldRows] = await db.batch([
    db.select({ total: count() }).from(orders).where(where),
    db
      .select()
      .from(orders)
      .where(where)
      .orderBy(...newestFirst)
      .limit(page.perPage)
      .offset(page.offset),
    db
      .select()
      .from(orderLines)
      .where(whereIn(scope, orderLines, inSubquery(orderLines.orderId, pageOf(orders.id))))
      .orderBy(orderLines.position),
    db
      .select()
      .from(customers)
      .where(whereIn(scope, customers, inSubquery(customers.id, pageOf(orders.customerId)))),
    db
      .select()
      .from(vouchers)
      .where(whereIn(scope, vouchers, inSubquery(vouchers.orderId, pageOf(orders.id))))
      .orderBy(sql`rowid`),
    ...sold.statements,
  ]);
  const packagesBy = byOrder<IssuedPackage>(sold.parse(soldRows));
  const linesOf = byOrder<OrderLineRow>(lines);
  const customerOf = new Map(people.map((p) => [p.id, p]));
  const issuedBy = byOrder<VoucherRow>(issued);
  const records: PosOrderRecord[] = rows.map((order) => ({
    order,
    lines: linesOf.get(order.id) ?? [],
    customer: order.customerId ? (customerOf.get(order.customerId) ?? null) : null,
    issued: issuedBy.get(order.id) ?? [],
    packages: packagesBy.get(order.id) ?? [],
  }));
  return { total: totals[0]?.total ?? 0, records };
}

/** Rows grouped by their order, in the order read. */
function byOrder<R extends { orderId: string }>(rows: readonly R[]): Map<string, R[]> {
  const out = new Map<string, R[]>();
  for (const row of rows) {
    const list = out.get(row.orderId);
    if (list) list.push(row);
    else out.set(row.orderId, [row]);
  }
  return out;
}
