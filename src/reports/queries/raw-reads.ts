import { and, asc, eq, isNotNull, ne, type SQL, sql } from "drizzle-orm";
import { idIn, inSubquery } from "../../db/bounded";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import {
  bookingPayments,
  bookings,
  bookingServices,
  calendarEntries,
  customerPackages,
  locationOffsets,
  orderLines,
  orders,
  packageRenewals,
  payments,
  reportBookingDays,
  reportCalendarDays,
  reportRevenueDays,
} from "../../db/schema";
import type { Scope } from "../../db/scope";

export type OrderRow = typeof orders.$inferSelect;
export type OrderLineRow = typeof orderLines.$inferSelect;
export type BookingServiceRow = typeof bookingServices.$inferSelect;

/** Σ changes of a location's rollup rows: it only grows, so a rebuild can tell a write happened meanwhile. */
export const changesSum = (locationId: string) =>
  sql<number>`(select coalesce(sum(changes), 0) from ${reportRevenueDays} where location_id = ${locationId})
    + (select coalesce(sum(changes), 0) from ${reportCalendarDays} where location_id = ${locationId})
    + (select coalesce(sum(changes), 0) from ${reportBookingDays} where location_id = ${locationId})`;

/** A rebuild window: its days first..last, and instants [fromMs, toMs) covering them (widened). */
export interface RawWindow {
  first: number;
  last: number;
  fromMs: number;
  toMs: number;
}

/** Σ changes of a location's rollup rows on days first..last. */
export const windowChangesSum = (locationId: string, w: { first: number; last: number }) =>
  sql<number>`(select coalesce(sum(changes), 0) from ${reportRevenueDays} where location_id = ${locationId} and day between ${w.first} and ${w.last})
    + (select coalesce(sum(changes), 0) from ${reportCalendarDays} where location_id = ${locationId} and day between ${w.first} and ${w.last})
    + (select coalesce(sum(changes), 0) from ${reportBookingDays} where location_id = ${locationId} and day between ${w.first} and ${w.last})`;

const within = (column: SQL | SQLiteColumn, w: RawWindow) =>
  sql`(${column} >= ${w.fromMs} and ${column} < ${w.toMs})`;

/**
 * Everything a location's rollups count, and Σ changes of the rollups, in one
 * batch (one consistent snapshot): the rebuild computes from these and writes
 * only if Σ changes did not move. With a window, only the rows that can count
 * on a day of it (more is harmless: the caller keeps the window's days):
 * orders paid or closed in it and their bookings, bookings starting or
 * completed in it or with a fee that moved in it, calendar entries overlapping
 * it, renewals in it; a booking's services, fees and kept fees come along.
 */
export async function readRawRows(scope: Scope, locationId: string, window?: RawWindow) {
  const { db, workspaceId: ws } = scope;
  const ofLocation = and(eq(bookings.workspaceId, ws), eq(bookings.locationId, locationId));
  const ofLocationOrders = and(eq(orders.workspaceId, ws), eq(orders.locationId, locationId));
  const windowOrders =
    window &&
    sql`${orders.id} in (select o.id from ${orders} o where o.workspace_id = ${ws} and o.location_id = ${locationId}
      and (${within(sql`o.paid_at`, window)} or ${within(sql`o.closed_at`, window)}))`;
  // ORs of IN lists rather than a UNION: D1 caps the terms of a compound SELECT.
  const windowBookings =
    window &&
    sql`(${within(bookings.startAt, window)} or ${within(bookings.completedAt, window)}
      or ${bookings.orderId} in (select o.id from ${orders} o where o.workspace_id = ${ws} and o.location_id = ${locationId}
        and (${within(sql`o.paid_at`, window)} or ${within(sql`o.closed_at`, window)}))
      or ${bookings.id} in (select p.booking_id from ${payments} p where p.workspace_id = ${ws}
        and p.kind in ('late_cancel_fee', 'no_show_fee') and ${within(sql`p.updated_at`, window)})
      or ${bookings.id} in (select bp.booking_id from ${bookingPayments} bp
        where bp.fee_kept <> 0 and ${within(sql`coalesce(bp.settled_at, bp.created_at)`, window)}))`;
  const bookingIds = db
    .select({ id: bookings.id })
    .from(bookings)
    .where(and(ofLocation, windowBookings));
  const [offsets, bookingRows, services, kept, paid, entries, orderRows, lines, renewals, sums] =
    await db.batch([
      db
        .select({ fromMs: locationOffsets.fromMs, offsetMs: locationOffsets.offsetMs })
        .from(locationOffsets)
        .where(eq(locationOffsets.locationId, locationId))
        .orderBy(asc(locationOffsets.fromMs)),
      db
        .select({
          id: bookings.id,
          customerId: bookings.customerId,
          orderId: bookings.orderId,
          startAt: bookings.startAt,
          isCanceled: bookings.isCanceled,
          cancelReason: bookings.cancelReason,
          canceledAt: bookings.canceledAt,
          cancelChargesFee: bookings.cancelChargesFee,
          isCompleted: bookings.isCompleted,
          completedAt: bookings.completedAt,
          completedPaymentMethod: bookings.completedPaymentMethod,
          lateCancelWindowMinutes: sql<
            number | null
          >`(select json_extract(bp.policy, '$.late_cancel.window_minutes') from ${bookingPayments} bp where bp.booking_id = ${bookings.id})`,
        })
        .from(bookings)
        .where(and(ofLocation, windowBookings)),
      db
        .select()
        .from(bookingServices)
        .where(
          and(
            eq(bookingServices.workspaceId, ws),
            inSubquery(bookingServices.bookingId, bookingIds),
          ),
        ),
      db
        .select({
          bookingId: bookingPayments.bookingId,
          feeKept: sql<number>`${bookingPayments.feeKept}`,
          settledAt: bookingPayments.settledAt,
          createdAt: bookingPayments.createdAt,
        })
        .from(bookingPayments)
        .where(
          and(
            isNotNull(bookingPayments.feeKept),
            ne(bookingPayments.feeKept, 0),
            inSubquery(bookingPayments.bookingId, bookingIds),
          ),
        ),
      db
        .select({
          bookingId: payments.bookingId,
          kind: payments.kind,
          status: payments.status,
          amount: payments.amount,
          updatedAt: payments.updatedAt,
        })
        .from(payments)
        .where(and(eq(payments.workspaceId, ws), inSubquery(payments.bookingId, bookingIds))),
      db
        .select({
          id: calendarEntries.id,
          stafferId: calendarEntries.stafferId,
          kind: calendarEntries.kind,
          startsAt: calendarEntries.startsAt,
          endsAt: calendarEntries.endsAt,
          sessionKey: calendarEntries.sessionKey,
        })
        .from(calendarEntries)
        .where(
          and(
            eq(calendarEntries.workspaceId, ws),
            eq(calendarEntries.locationId, locationId),
            isNotNull(calendarEntries.stafferId),
            idIn(calendarEntries.kind, ["booking", "blocked"]),
            window &&
              sql`${calendarEntries.startsAt} < ${window.toMs} and ${calendarEntries.endsAt} > ${window.fromMs}`,
          ),
        )
        // Insertion order: a group session counts the seat the trigger counted, the first.
        .orderBy(sql`${calendarEntries}.rowid`),
      db.select().from(orders).where(and(ofLocationOrders, windowOrders)),
      db
        .select()
        .from(orderLines)
        .where(
          and(
            eq(orderLines.workspaceId, ws),
            inSubquery(
              orderLines.orderId,
              db.select({ id: orders.id }).from(orders).where(and(ofLocationOrders, windowOrders)),
            ),
          ),
        )
        .orderBy(asc(orderLines.orderId), asc(orderLines.position)),
      db
        .select({
          status: packageRenewals.status,
          amount: packageRenewals.amount,
          updatedAt: packageRenewals.updatedAt,
        })
        .from(packageRenewals)
        .innerJoin(customerPackages, eq(customerPackages.id, packageRenewals.customerPackageId))
        .where(
          and(
            eq(customerPackages.workspaceId, ws),
            eq(customerPackages.locationId, locationId),
            window && within(packageRenewals.updatedAt, window),
          ),
        ),
      db
        .select({
          changes: changesSum(locationId),
          windowChanges: window ? windowChangesSum(locationId, window) : changesSum(locationId),
        })
        .from(sql`(select 1)`),
    ]);
  return {
    offsets,
    bookings: bookingRows.map((b) => ({
      ...b,
      lateCancelWindowMinutes:
        b.lateCancelWindowMinutes === null ? null : Number(b.lateCancelWindowMinutes),
    })),
    bookingServices: services,
    keptFees: kept,
    payments: paid,
    calendarEntries: entries,
    orders: orderRows,
    orderLines: lines,
    renewals,
    changes: Number(sums[0]?.changes ?? 0),
    /** Σ changes of the rows the write replaces (the window's, or all). */
    windowChanges: Number(sums[0]?.windowChanges ?? 0),
  };
}
