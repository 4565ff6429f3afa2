import { eq, sql } from "drizzle-orm";
import { bookingServices, bookings } from "../../db/schema";
import { type Scope, whereIn } from "../../db/scope";

/**
 * A booking's own facts as subqueries, for reads that run in the same batch
 * as the booking itself (they cannot wait for its row): its location, its
 * services and staffers, and its time as local-date expressions.
 */
export function bookingRefs(scope: Scope, bookingId: string) {
  const { db } = scope;
  const own = whereIn(scope, bookings, eq(bookings.id, bookingId));
  const itsServices = whereIn(scope, bookingServices, eq(bookingServices.bookingId, bookingId));
  const startAt = db.select({ v: bookings.startAt }).from(bookings).where(own);
  const firstStart = db
    .select({ v: sql<number>`min(${bookingServices.reservedOn})` })
    .from(bookingServices)
    .where(itsServices);
  // busyEnd (src/platform/rules/duration.ts) in SQL: the last service's end plus its buffer.
  const lastEnd = db
    .select({
      v: sql<number>`max(${bookingServices.reservedUntil} + ${bookingServices.buffer} * 60000)`,
    })
    .from(bookingServices)
    .where(itsServices);
  /** The UTC date of an epoch-ms expression, shifted by `days`. */
  const dateOf = (ms: ReturnType<typeof sql>, days: number) =>
    sql`date((${ms}) / 1000, 'unixepoch', ${`${days} days`})`;
  return {
    locationId: db.select({ id: bookings.locationId }).from(bookings).where(own),
    serviceIds: db
      .select({ id: bookingServices.serviceId })
      .from(bookingServices)
      .where(itsServices),
    stafferIds: db
      .select({ id: bookingServices.stafferId })
      .from(bookingServices)
      .where(itsServices),
    /** The date of the booking's first start, shifted by `days`. */
    startDate: (days: number) => dateOf(sql`(${firstStart})`, days),
    /** The date of the booking's last end (buffer included), shifted by `days`. */
    endDate: (days: number) => dateOf(sql`(${lastEnd})`, days),
    /** The date the booking's last end would have if it started at `start`, shifted by `days`. */
    movedEndDate: (start: number, days: number) =>
      dateOf(sql`(${lastEnd}) - (${startAt}) + ${start}`, days),
  };
}
