import { and, asc, count, eq, gt, gte, lt, sql } from "drizzle-orm";
import type { PageRequest } from "../../platform/pagination";
import { bookings, bookingServices, services } from "../../db/schema";
import { type Scope, whereIn } from "../../db/scope";
import { IdListSchema, parseJsonColumn } from "../../db/json-column";

export interface SessionFilter {
  locationId: string;
  serviceId?: string | undefined;
  /** Sessions starting in [from, to), epoch ms. */
  from: number;
  to: number;
}

/**
 * A page of group sessions and their total, in one round trip: the live
 * booked services of group services (capacity > 1) grouped by staffer,
 * service and start, with their seats and bookings. The calendars hold the
 * same seats (the audit compares them); this reads the bookings, which are
 * what a session is made of.
 */
export async function listSessions(scope: Scope, page: PageRequest, filter: SessionFilter) {
  const { db } = scope;
  const where = whereIn(
    scope,
    bookingServices,
    eq(bookings.locationId, filter.locationId),
    eq(bookings.isCanceled, false),
    gt(services.capacity, 1),
    gte(bookingServices.reservedOn, filter.from),
    lt(bookingServices.reservedOn, filter.to),
    filter.serviceId ? eq(bookingServices.serviceId, filter.serviceId) : undefined,
  );
  const grouped = db
    .select({
      start: bookingServices.reservedOn,
      stafferId: bookingServices.stafferId,
      serviceId: bookingServices.serviceId,
      capacity: services.capacity,
      seatsTaken: sql<number>`sum(${bookingServices.quantity})`.as("seats_taken"),
      bookingIds: sql<string>`json_group_array(${bookingServices.bookingId})`.as("booking_ids"),
    })
    .from(bookingServices)
    .innerJoin(bookings, eq(bookings.id, bookingServices.bookingId))
    .innerJoin(
      services,
      and(eq(services.id, bookingServices.serviceId), eq(services.workspaceId, scope.workspaceId)),
    )
    .where(where)
    .groupBy(bookingServices.stafferId, bookingServices.serviceId, bookingServices.reservedOn);
  const sessions = grouped.as("sessions");
  const [totals, rows] = await db.batch([
    db.select({ total: count() }).from(sessions),
    grouped
      .orderBy(
        asc(bookingServices.reservedOn),
        asc(bookingServices.stafferId),
        asc(bookingServices.serviceId),
      )
      .limit(page.perPage)
      .offset(page.offset),
  ]);
  return {
    total: totals[0]?.total ?? 0,
    rows: rows.map((r) => ({
      ...r,
      bookingIds: parseJsonColumn(IdListSchema, r.bookingIds, {
        column: "booking_services (aggregate)",
      }).sort(),
    })),
  };
}

export type SessionRow = Awaited<ReturnType<typeof listSessions>>["rows"][number];
