import { and, eq, gt, gte, isNull, lt, lte, or, type SQL, sql, type SQLWrapper } from "drizzle-orm";
import type { BatchResponse } from "drizzle-orm/batch";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { inSubquery } from "../../db/bounded";
import { idIn } from "../../db/bounded";
import {
  bookingStatuses,
  calendarEntries,
  calendarSpans,
  customers,
  locations,
  reservations,
  resources,
  serviceLocations,
  serviceResources,
  serviceStaffers,
  services,
  stafferDateOverrides,
  stafferLocations,
  stafferSchedules,
  staffers,
} from "../../db/schema";
import { read } from "../../db/reads";
import { type Scope, whereByKey, whereIn } from "../../db/scope";
import { selectBookingForm, toBookingForm } from "../../tenancy/queries/booking-form";
import { shownInWidget } from "../../catalogue/queries/services";

const DAY_MS = 86_400_000;
// No zone is more than 14 h from UTC: this pad turns local dates into a safe UTC window.
const ZONE_PAD_MS = 14 * 3_600_000;

/**
 * A value the query knows, or a scalar subquery the same statement resolves
 * (a booking's own location or staffers), so a change to a booking can read
 * its availability alongside the booking itself instead of after it.
 */
export type Ref<T> = T | SQLWrapper;

/** Local dates `YYYY-MM-DD`, as text or as an SQL expression yielding one. */
export type DateRef = Ref<string>;

const isKnown = <T>(ref: Ref<T>): ref is T => typeof ref === "string" || Array.isArray(ref);

const among = (column: SQLiteColumn, ids: Ref<string[]>): SQL =>
  isKnown(ids) ? idIn(column, ids) : inSubquery(column, ids);

const equals = (column: SQLiteColumn, id: Ref<string>): SQL =>
  isKnown(id) ? eq(column, id) : sql`${column} = (${id})`;

const dateShift = (date: DateRef, days: number): Ref<string> =>
  isKnown(date) ? shiftDate(date, days) : sql`date((${date}), ${`${days} days`})`;

/** Midnight UTC of a date, epoch ms. */
const dayStart = (date: DateRef): Ref<number> =>
  isKnown(date) ? Date.parse(`${date}T00:00:00Z`) : sql`(unixepoch((${date})) * 1000)`;

const plus = (ms: Ref<number>, add: number): Ref<number> =>
  typeof ms === "number" ? ms + add : sql`(${ms} + ${add})`;

export interface AvailabilityQuery {
  locationId: Ref<string>;
  serviceIds: Ref<string[]>;
  /** Restrict to these staffers (the client named them, or the booking has them). */
  stafferIds?: Ref<string[]>;
  fromDate: DateRef;
  toDate: DateRef;
  /**
   * Also look up the customer with this phone (E.164): booking writes need to know whether
   * it is new, and an existing customer keeps the id it has (ids are derived, see
   * src/platform/rules/customer-id.ts, and the derivation changed once).
   */
  customerPhone?: string;
  /** Reservations count as busy while unexpired at this instant (default: now). */
  at?: number;
  /** Also read this reservation (a booking that uses it), in the same round trip. */
  reservationId?: string;
  /** Read only the services a publishable key may book (`shownInWidget`); the others are unknown. */
  widgetOnly?: boolean;
}

/**
 * Everything a slot search needs, in one D1 round trip: the location, the
 * services, the staff who may perform them there (active in the widget,
 * attached to the location and to the service), their weekly schedules and
 * overrides, and every busy interval of theirs in the window, at any location.
 */
export async function loadAvailability(scope: Scope, q: AvailabilityQuery) {
  return availabilityFrom(await scope.db.batch(availabilityReads(scope, q)));
}

/** The statements of `loadAvailability`, to run in another read's batch (`availabilityFrom` reads them). */
export function availabilityReads(scope: Scope, q: AvailabilityQuery) {
  const { db } = scope;
  const windowStart = plus(dayStart(q.fromDate), -ZONE_PAD_MS);
  const windowEnd = plus(dayStart(q.toDate), DAY_MS + ZONE_PAD_MS);

  // The location's staff first, then each staffer by id (CROSS JOIN fixes that order): from
  // `staffers`, SQLite would read every staffer of the workspace (a chain's thousands) to keep
  // the location's.
  const eligible = db
    .select({ id: stafferLocations.stafferId })
    .from(stafferLocations)
    .crossJoin(staffers)
    .where(
      and(
        whereIn(
          scope,
          stafferLocations,
          equals(stafferLocations.locationId, q.locationId),
          q.stafferIds ? among(stafferLocations.stafferId, q.stafferIds) : undefined,
        ),
        whereIn(
          scope,
          staffers,
          eq(staffers.id, stafferLocations.stafferId),
          eq(staffers.isActiveInWidget, true),
        ),
      ),
    );

  // Calendar entries (staffers' or units') overlapping the window, read from each calendar's
  // `calendar_spans` row (CROSS JOIN: the span first, then its entries by the calendar's
  // (owner, starts_at) index). An entry that overlaps the window starts after the window's start
  // less the calendar's longest entry, so its index range is bounded on both sides: the
  // window's entries and those of `longest` before it, never the calendar's whole past. A
  // calendar without a span row has no entries. A reservation's hold is busy time up to its
  // expiry, to the second, alarm or not.
  const busyInWindow = and(
    gt(calendarEntries.startsAt, sql`${windowStart} - ${calendarSpans.longest}`),
    lt(calendarEntries.startsAt, windowEnd),
    gt(calendarEntries.endsAt, windowStart),
    or(isNull(calendarEntries.expiresAt), gt(calendarEntries.expiresAt, q.at ?? Date.now())),
  );

  // Resources the services need, of this location: the others have no unit here.
  const needed = db
    .select({ id: serviceResources.resourceId })
    .from(serviceResources)
    .where(whereIn(scope, serviceResources, among(serviceResources.serviceId, q.serviceIds)));

  return [
    db
      .select()
      .from(locations)
      .where(whereIn(scope, locations, equals(locations.id, q.locationId))),
    db
      .select()
      .from(services)
      .where(
        whereByKey(
          scope,
          services,
          among(services.id, q.serviceIds),
          q.widgetOnly ? shownInWidget : undefined,
        ),
      ),
    db
      .select({ serviceId: serviceLocations.serviceId })
      .from(serviceLocations)
      .where(
        whereIn(
          scope,
          serviceLocations,
          equals(serviceLocations.locationId, q.locationId),
          among(serviceLocations.serviceId, q.serviceIds),
        ),
      ),
    db
      .select({ serviceId: serviceStaffers.serviceId, stafferId: serviceStaffers.stafferId })
      .from(serviceStaffers)
      .where(
        whereIn(
          scope,
          serviceStaffers,
          among(serviceStaffers.serviceId, q.serviceIds),
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
          equals(stafferSchedules.locationId, q.locationId),
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
          equals(stafferDateOverrides.locationId, q.locationId),
          inSubquery(stafferDateOverrides.stafferId, eligible),
          // Overrides are local dates; one day either side covers every zone offset.
          gte(stafferDateOverrides.date, dateShift(q.fromDate, -1)),
          lte(stafferDateOverrides.date, dateShift(q.toDate, 1)),
        ),
      ),
    db
      .select({
        id: calendarEntries.id,
        stafferId: calendarEntries.stafferId,
        kind: calendarEntries.kind,
        yields: calendarEntries.yields,
        start: calendarEntries.startsAt,
        end: calendarEntries.endsAt,
        sessionKey: calendarEntries.sessionKey,
        seats: calendarEntries.seats,
        capacity: calendarEntries.capacity,
      })
      .from(calendarSpans)
      .crossJoin(calendarEntries)
      .where(
        and(
          // A staffer's calendar id is the staffer's id.
          whereIn(scope, calendarSpans, inSubquery(calendarSpans.calendarId, eligible)),
          whereIn(
            scope,
            calendarEntries,
            eq(calendarEntries.stafferId, calendarSpans.stafferId),
            busyInWindow,
          ),
        ),
      ),
    db
      .select()
      .from(customers)
      .where(whereIn(scope, customers, eq(customers.phone, q.customerPhone ?? ""))),
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
    db
      .select({ serviceId: serviceResources.serviceId, resourceId: serviceResources.resourceId })
      .from(serviceResources)
      .where(whereIn(scope, serviceResources, among(serviceResources.serviceId, q.serviceIds))),
    db
      .select({ id: resources.id, quantity: resources.quantity })
      .from(resources)
      .where(
        whereIn(
          scope,
          resources,
          equals(resources.locationId, q.locationId),
          inSubquery(resources.id, needed),
        ),
      ),
    db
      .select({
        id: calendarEntries.id,
        resourceId: calendarEntries.resourceId,
        unit: calendarEntries.unit,
        kind: calendarEntries.kind,
        yields: calendarEntries.yields,
        start: calendarEntries.startsAt,
        end: calendarEntries.endsAt,
        sessionKey: calendarEntries.sessionKey,
        seats: calendarEntries.seats,
        capacity: calendarEntries.capacity,
      })
      .from(calendarSpans)
      .crossJoin(calendarEntries)
      .where(
        and(
          // Every unit of the resources that has entries has a span row.
          whereIn(scope, calendarSpans, inSubquery(calendarSpans.resourceId, needed)),
          whereIn(
            scope,
            calendarEntries,
            eq(calendarEntries.resourceId, calendarSpans.resourceId),
            eq(calendarEntries.unit, calendarSpans.unit),
            busyInWindow,
          ),
        ),
      ),
  ] as const;
}

export type AvailabilityRows = BatchResponse<ReturnType<typeof availabilityReads>>;

/** `loadAvailability` as a read to run beside others (a booking change reads it with the booking). */
export const availabilityRead = (scope: Scope, q: AvailabilityQuery) =>
  read(availabilityReads(scope, q), availabilityFrom);

/** What `availabilityReads` read, shaped for the slot engine. */
export function availabilityFrom(rows: AvailabilityRows) {
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
    required,
    resourceRows,
    resourceBusy,
  ] = rows;
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
    /** Which resources each service needs (one unit of each). */
    required,
    /** Those resources that exist at this location, with their number of units. */
    resources: resourceRows,
    /** Busy time of their units in the window. */
    resourceBusy,
  };
}

export function shiftDate(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

export type Availability = ReturnType<typeof availabilityFrom>;
