import { and, count, desc, eq, exists, gt, gte, lte, or, type SQL, sql } from "drizzle-orm";
import type { ListState } from "../rules/booking-rules";
import type { PageRequest } from "../../platform/pagination";
import { bookingServices, bookingStatuses, bookings, customers, locations } from "../../db/schema";
import { type Scope, whereIn } from "../../db/scope";

export interface BookingFilters {
  customerId?: string | undefined;
  locationId?: string | undefined;
  stafferId?: string | undefined;
  state?: ListState | undefined;
  statusId?: string | undefined;
  reservedFrom?: number | undefined;
  reservedTo?: number | undefined;
  createdFrom?: number | undefined;
  createdTo?: number | undefined;
}

const open = and(eq(bookings.isCanceled, false), eq(bookings.isCompleted, false));

function stateCondition(state: ListState, now: number): SQL | undefined {
  switch (state) {
    case "upcoming":
      return and(open, gt(bookings.startAt, now));
    case "in_progress":
      return and(open, lte(bookings.startAt, now), gt(bookings.endAt, now));
    case "archive":
      return or(
        lte(bookings.endAt, now),
        eq(bookings.isCanceled, true),
        eq(bookings.isCompleted, true),
      );
  }
}

/** A page of bookings with their customer, status and location zone, newest reservation first: one round trip. */
export async function listBookings(
  scope: Scope,
  f: BookingFilters,
  page: PageRequest,
  now: number,
) {
  const { db } = scope;
  const where = whereIn(
    scope,
    bookings,
    f.customerId ? eq(bookings.customerId, f.customerId) : undefined,
    f.locationId ? eq(bookings.locationId, f.locationId) : undefined,
    f.statusId ? eq(bookings.statusId, f.statusId) : undefined,
    f.state ? stateCondition(f.state, now) : undefined,
    f.reservedFrom !== undefined ? gte(bookings.startAt, f.reservedFrom) : undefined,
    f.reservedTo !== undefined ? lte(bookings.startAt, f.reservedTo) : undefined,
    f.createdFrom !== undefined ? gte(bookings.createdAt, f.createdFrom) : undefined,
    f.createdTo !== undefined ? lte(bookings.createdAt, f.createdTo) : undefined,
    f.stafferId
      ? exists(
          db
            .select({ one: sql`1` })
            .from(bookingServices)
            .where(
              and(
                eq(bookingServices.bookingId, bookings.id),
                eq(bookingServices.stafferId, f.stafferId),
              ),
            ),
        )
      : undefined,
  );
  // Joined rows share column names (id, created_at…), which D1 batches cannot map: two parallel queries instead.
  const [totals, rows] = await Promise.all([
    db.select({ total: count() }).from(bookings).where(where),
    db
      .select({
        booking: bookings,
        customer: customers,
        status: bookingStatuses,
        locationTimezone: sql<string>`${locations.timezone}`.as("location_timezone"),
      })
      .from(bookings)
      .innerJoin(customers, eq(customers.id, bookings.customerId))
      .innerJoin(bookingStatuses, eq(bookingStatuses.id, bookings.statusId))
      .innerJoin(locations, eq(locations.id, bookings.locationId))
      .where(where)
      .orderBy(desc(bookings.startAt), desc(bookings.id))
      .limit(page.perPage)
      .offset(page.offset),
  ]);
  return { total: totals[0]?.total ?? 0, rows };
}
