import { and, asc, eq, isNotNull, ne, sql } from "drizzle-orm";
import { idIn, inSubquery } from "../../db/bounded";
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

/**
 * Everything a location's rollups count, and Σ changes of the rollups, in one
 * batch (one consistent snapshot): the rebuild computes from these and writes
 * only if Σ changes did not move.
 */
export async function readRawRows(scope: Scope, locationId: string) {
  const { db, workspaceId: ws } = scope;
  const ofLocation = and(eq(bookings.workspaceId, ws), eq(bookings.locationId, locationId));
  const bookingIds = db.select({ id: bookings.id }).from(bookings).where(ofLocation);
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
        .where(ofLocation),
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
          ),
        )
        // Insertion order: a group session counts the seat the trigger counted, the first.
        .orderBy(sql`${calendarEntries}.rowid`),
      db
        .select()
        .from(orders)
        .where(and(eq(orders.workspaceId, ws), eq(orders.locationId, locationId))),
      db
        .select()
        .from(orderLines)
        .where(
          and(
            eq(orderLines.workspaceId, ws),
            inSubquery(
              orderLines.orderId,
              db
                .select({ id: orders.id })
                .from(orders)
                .where(and(eq(orders.workspaceId, ws), eq(orders.locationId, locationId))),
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
          and(eq(customerPackages.workspaceId, ws), eq(customerPackages.locationId, locationId)),
        ),
      db.select({ changes: changesSum(locationId) }).from(sql`(select 1)`),
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
  };
}
