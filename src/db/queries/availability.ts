import { and, eq, gt, gte, isNull, lt, lte, or } from "drizzle-orm";
import { inSubquery } from "../bounded";
import { idIn } from "../bounded";
import {
  bookingStatuses,
  calendarEntries,
  customers,
  locations,
  reservations,
  serviceLocations,
  serviceStaffers,
  services,
  stafferDateOverrides,
  stafferLocations,
  stafferSchedules,
  staffers,
} from "../schema";
import { type Scope, whereIn } from "../scope";
import { selectBookingForm, toBookingForm } from "./booking-form";

const DAY_MS = 86_400_000;
// No zone is more than 14 h from UTC: this pad turns local dates into a safe UTC window.
const ZONE_PAD_MS = 14 * 3_600_000;

export interface AvailabilityQuery {
  locationId: string;
  serviceIds: string[];
  /** Restrict to these staffers (the client named them). */
  stafferIds?: string[];
  fromDate: string;
  toDate: string;
  /** Also look up this customer (booking writes need to know whether it is new). */
  customerId?: string;
  /** Reservations count as busy while unexpired at this instant (default: now). */
  at?: number;
  /** Also read this reservation (a booking that uses it), in the same round trip. */
  reservationId?: string;
}

/**
 * Everything a slot search needs, in one D1 round trip: the location, the
 * services, the staff who may perform them there (active in the widget,
 * attached to the location and to the service), their weekly schedules and
 * overrides, and every busy interval of theirs in the window, at any location.
 */
export async function loadAvailability(scope: Scope, q: AvailabilityQuery) {
  const { db } = scope;
  const windowStart = Date.parse(`${q.fromDate}T00:00:00Z`) - ZONE_PAD_MS;
  const windowEnd = Date.parse(`${q.toDate}T00:00:00Z`) + DAY_MS + ZONE_PAD_MS;

  const eligible = db
    .select({ id: staffers.id })
    .from(staffers)
    .innerJoin(stafferLocations, eq(stafferLocations.stafferId, staffers.id))
    .where(
      whereIn(
        scope,
        staffers,
        eq(staffers.isActiveInWidget, true),
        eq(stafferLocations.locationId, q.locationId),
        q.stafferIds ? idIn(staffers.id, q.stafferIds) : undefined,
      ),
    );

  const [
    location,
    serviceRows,
    offeredAt,
    performers,
    weekly,
    overrides,
    busy,
    customer,
    statuses,
    form,
    reservation,
  ] = await db.batch([
    db
      .select()
      .from(locations)
      .where(whereIn(scope, locations, eq(locations.id, q.locationId))),
    db
      .select()
      .from(services)
      .where(whereIn(scope, services, idIn(services.id, q.serviceIds))),
    db
      .select({ serviceId: serviceLocations.serviceId })
      .from(serviceLocations)
      .where(
        whereIn(
          scope,
          serviceLocations,
          eq(serviceLocations.locationId, q.locationId),
          idIn(serviceLocations.serviceId, q.serviceIds),
        ),
      ),
    db
      .select({ serviceId: serviceStaffers.serviceId, stafferId: serviceStaffers.stafferId })
      .from(serviceStaffers)
      .where(
        whereIn(
          scope,
          serviceStaffers,
          idIn(serviceStaffers.serviceId, q.serviceIds),
          inSubquery(serviceStaffers.stafferId, eligible),
        ),
      ),
    db
      .select()
      .from(stafferSchedules)
      .where(
        whereIn(
          scope,
          stafferSchedules,
          eq(stafferSchedules.locationId, q.locationId),
          inSubquery(stafferSchedules.stafferId, eligible),
        ),
      ),
    db
      .select()
      .from(stafferDateOverrides)
      .where(
        whereIn(
          scope,
          stafferDateOverrides,
          eq(stafferDateOverrides.locationId, q.locationId),
          inSubquery(stafferDateOverrides.stafferId, eligible),
          // Overrides are local dates; one day either side covers every zone offset.
          gte(stafferDateOverrides.date, shiftDate(q.fromDate, -1)),
          lte(stafferDateOverrides.date, shiftDate(q.toDate, 1)),
        ),
      ),
    db
      .select({
        id: calendarEntries.id,
        stafferId: calendarEntries.stafferId,
        kind: calendarEntries.kind,
        start: calendarEntries.startsAt,
        end: calendarEntries.endsAt,
      })
      .from(calendarEntries)
      .where(
        and(
          whereIn(scope, calendarEntries, inSubquery(calendarEntries.stafferId, eligible)),
          lt(calendarEntries.startsAt, windowEnd),
          gt(calendarEntries.endsAt, windowStart),
          // A reservation's hold is busy time up to its expiry, to the second, alarm or not.
          or(isNull(calendarEntries.expiresAt), gt(calendarEntries.expiresAt, q.at ?? Date.now())),
        ),
      ),
    db
      .select()
      .from(customers)
      .where(whereIn(scope, customers, eq(customers.id, q.customerId ?? ""))),
    // New bookings take the workspace's first status of type `new`.
    db
      .select()
      .from(bookingStatuses)
      .where(whereIn(scope, bookingStatuses, eq(bookingStatuses.type, "new")))
      .orderBy(bookingStatuses.createdAt)
      .limit(1),
    // Booking writes enforce the workspace's booking form; read here, it costs no round trip.
    selectBookingForm(scope),
    db
      .select()
      .from(reservations)
      .where(whereIn(scope, reservations, eq(reservations.id, q.reservationId ?? ""))),
  ]);
  return {
    location: location[0] ?? null,
    services: serviceRows,
    offeredAt: new Set(offeredAt.map((r) => r.serviceId)),
    performers,
    weekly,
    overrides,
    busy,
    customer: customer[0] ?? null,
    newStatus: statuses[0] ?? null,
    bookingForm: toBookingForm(form),
    reservation: reservation[0] ?? null,
  };
}

export function shiftDate(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}
