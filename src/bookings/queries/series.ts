import { asc, eq } from "drizzle-orm";
import { inSubquery } from "../../db/bounded";
import {
  bookingServices,
  bookingStatuses,
  bookings,
  locations,
  orders,
  series,
} from "../../db/schema";
import { read } from "../../db/reads";
import { type Scope, whereIn } from "../../db/scope";
import type { BookingRecord } from "./bookings";

export type SeriesRow = typeof series.$inferSelect;

/** A series and every booking of it (start order), as booking responses render them. */
export interface SeriesRecord {
  series: SeriesRow;
  bookings: BookingRecord[];
}

/**
 * A series with its bookings, their services, orders (with every service on
 * each order, for the totals), statuses and the location's policy, in one
 * batch (one round trip) of fixed size whatever the number of occurrences;
 * null when the series is not in this workspace.
 */
export function seriesRead(scope: Scope, seriesId: string) {
  const { db } = scope;
  const own = whereIn(scope, bookings, eq(bookings.seriesId, seriesId));
  const orderIds = db.select({ id: bookings.orderId }).from(bookings).where(own);
  const statusIds = db.select({ id: bookings.statusId }).from(bookings).where(own);
  const onOrders = db
    .select({ id: bookings.id })
    .from(bookings)
    .where(whereIn(scope, bookings, inSubquery(bookings.orderId, orderIds)));
  const locationId = db
    .select({ id: series.locationId })
    .from(series)
    .where(whereIn(scope, series, eq(series.id, seriesId)));
  return read(
    [
      db
        .select()
        .from(series)
        .where(whereIn(scope, series, eq(series.id, seriesId))),
      db.select().from(bookings).where(own).orderBy(asc(bookings.startAt), asc(bookings.id)),
      db
        .select()
        .from(orders)
        .where(whereIn(scope, orders, inSubquery(orders.id, orderIds))),
      // Every service on those orders, with its booking's order (an order's totals span them).
      db
        .select({ service: bookingServices, orderId: bookings.orderId })
        .from(bookingServices)
        .innerJoin(bookings, eq(bookings.id, bookingServices.bookingId))
        .where(whereIn(scope, bookingServices, inSubquery(bookingServices.bookingId, onOrders))),
      db
        .select()
        .from(bookingStatuses)
        .where(whereIn(scope, bookingStatuses, inSubquery(bookingStatuses.id, statusIds))),
      db
        .select({
          cancellationOffset: locations.cancellationOffset,
          changeOffset: locations.changeOffset,
          policyText: locations.policyText,
          cancellationText: locations.cancellationText,
          changeText: locations.changeText,
        })
        .from(locations)
        .where(whereIn(scope, locations, inSubquery(locations.id, locationId))),
    ] as const,
    ([found, rows, orderRows, services, statuses, policies]): SeriesRecord | null => {
      const [row] = found;
      const [policy] = policies;
      if (!row || !policy) return null;
      const orderOf = new Map(orderRows.map((o) => [o.id, o]));
      const statusOf = new Map(statuses.map((s) => [s.id, s]));
      return {
        series: row,
        bookings: rows.flatMap((booking) => {
          const order = orderOf.get(booking.orderId);
          const status = statusOf.get(booking.statusId);
          if (!order || !status) return [];
          return [
            {
              booking,
              services: services.flatMap((s) =>
                s.service.bookingId === booking.id ? [s.service] : [],
              ),
              order,
              orderServices: services.flatMap((s) => (s.orderId === order.id ? [s.service] : [])),
              status,
              policy,
            },
          ];
        }),
      };
    },
  );
}
