import { and, count, desc, eq, gte, inArray, lte, type SQL, sql } from "drizzle-orm";
import type { PageRequest } from "../../lib/pagination";
import { idIn } from "../bounded";
import {
  bookings,
  customers,
  goods,
  locations,
  orderLines,
  orders,
  promocodes,
  promocodeUses,
  services,
  stafferLocations,
  staffers,
  voucherTemplates,
} from "../schema";
import { type Scope, whereIn } from "../scope";
import { promocodeMatches } from "./promocodes";

export type OrderRow = typeof orders.$inferSelect;
export type OrderLineRow = typeof orderLines.$inferSelect;
export type CustomerRow = typeof customers.$inferSelect;

/** Everything a POS order request refers to, looked up by id. */
export interface OrderRefs {
  locationId: string;
  sellerId: string | null;
  customerId: string | null;
  goodIds: string[];
  serviceIds: string[];
  voucherTemplateIds: string[];
  stafferIds: string[];
  bookingIds: string[];
  promocode: string | null;
  /** Bookings whose own promocode uses do not count against the code's limit. */
  excludedBookingIds: string[];
}

/**
 * The catalogue rows, people and promocode an order request names, in one
 * round trip. Every query is single-table, as D1 batches map rows by column name.
 */
export async function loadOrderRefs(scope: Scope, refs: OrderRefs) {
  const { db } = scope;
  const promoUses = (...extra: SQL[]) =>
    sql<number>`(${db
      .select({ n: count() })
      .from(promocodeUses)
      .where(and(eq(promocodeUses.promocodeId, promocodes.id), ...extra))})`;
  const [
    location,
    seller,
    sellerLocation,
    customer,
    goodRows,
    serviceRows,
    templateRows,
    stafferRows,
    bookingRows,
    promo,
  ] = await db.batch([
    db
      .select()
      .from(locations)
      .where(whereIn(scope, locations, eq(locations.id, refs.locationId))),
    db
      .select()
      .from(staffers)
      .where(whereIn(scope, staffers, eq(staffers.id, refs.sellerId ?? ""))),
    db
      .select({ stafferId: stafferLocations.stafferId })
      .from(stafferLocations)
      .where(
        whereIn(
          scope,
          stafferLocations,
          eq(stafferLocations.stafferId, refs.sellerId ?? ""),
          eq(stafferLocations.locationId, refs.locationId),
        ),
      ),
    db
      .select()
      .from(customers)
      .where(whereIn(scope, customers, eq(customers.id, refs.customerId ?? ""))),
    db
      .select()
      .from(goods)
      .where(whereIn(scope, goods, idIn(goods.id, refs.goodIds))),
    db
      .select()
      .from(services)
      .where(whereIn(scope, services, idIn(services.id, refs.serviceIds))),
    db
      .select()
      .from(voucherTemplates)
      .where(whereIn(scope, voucherTemplates, idIn(voucherTemplates.id, refs.voucherTemplateIds))),
    db
      .select({ id: staffers.id })
      .from(staffers)
      .where(whereIn(scope, staffers, idIn(staffers.id, refs.stafferIds))),
    db
      .select({ id: bookings.id })
      .from(bookings)
      .where(whereIn(scope, bookings, idIn(bookings.id, refs.bookingIds))),
    db
      .select({
        promocode: promocodes,
        used: promoUses().as("used"),
        usedByExcluded: promoUses(idIn(promocodeUses.bookingId, refs.excludedBookingIds)).as(
          "used_by_excluded",
        ),
      })
      .from(promocodes)
      .where(whereIn(scope, promocodes, promocodeMatches(refs.promocode ?? ""))),
  ]);
  return {
    location: location[0] ?? null,
    seller: seller[0] ?? null,
    sellerWorksHere: sellerLocation.length > 0,
    customer: customer[0] ?? null,
    goods: new Map(goodRows.map((g) => [g.id, g])),
    services: new Map(serviceRows.map((s) => [s.id, s])),
    voucherTemplates: new Map(templateRows.map((t) => [t.id, t])),
    stafferIds: new Set(stafferRows.map((s) => s.id)),
    bookingIds: new Set(bookingRows.map((b) => b.id)),
    promocode: refs.promocode === null ? null : (promo[0] ?? null),
  };
}

export type LoadedRefs = Awaited<ReturnType<typeof loadOrderRefs>>;

/** The three reads that make up a POS order, to be batched with whatever else a request needs. */
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
          inArray(
            customers.id,
            db.select({ id: orders.customerId }).from(orders).where(eq(orders.id, orderId)),
          ),
        ),
      ),
  ] as const;
}

export interface PosOrderView {
  order: OrderRow;
  lines: OrderLineRow[];
  customer: CustomerRow | null;
}

export async function loadPosOrder(scope: Scope, orderId: string): Promise<PosOrderView | null> {
  const [order, lines, customer] = await scope.db.batch(posOrderReads(scope, orderId));
  const row = order[0];
  return row ? { order: row, lines, customer: customer[0] ?? null } : null;
}

export interface OrderFilters {
  status?: OrderRow["status"] | undefined;
  locationId?: string | undefined;
  sellerId?: string | undefined;
  customerId?: string | undefined;
  createdFrom?: number | undefined;
  createdTo?: number | undefined;
}

/** A page of POS orders, newest first, with their lines and customers: one round trip. */
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
  const [totals, rows, lines, people] = await db.batch([
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
      .where(whereIn(scope, orderLines, inArray(orderLines.orderId, pageOf(orders.id))))
      .orderBy(orderLines.position),
    db
      .select()
      .from(customers)
      .where(whereIn(scope, customers, inArray(customers.id, pageOf(orders.customerId)))),
  ]);
  const linesOf = new Map<string, OrderLineRow[]>();
  for (const line of lines) {
    const list = linesOf.get(line.orderId);
    if (list) list.push(line);
    else linesOf.set(line.orderId, [line]);
  }
  const customerOf = new Map(people.map((p) => [p.id, p]));
  const views: PosOrderView[] = rows.map((order) => ({
    order,
    lines: linesOf.get(order.id) ?? [],
    customer: order.customerId ? (customerOf.get(order.customerId) ?? null) : null,
  }));
  return { total: totals[0]?.total ?? 0, views };
}
