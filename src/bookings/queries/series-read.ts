import { and, asc, eq, type SQL, sql } from "drizzle-orm";
import { inSubquery } from "../../db/bounded";
import { named, type Read, read } from "../../db/reads";
import {
  bookingServices,
  bookingStatuses,
  bookings,
  calendarEntries,
  customers,
  locations,
  messages,
  orders,
  series,
} from "../../db/schema";
import { type Scope, whereIn } from "../../db/scope";
import { type LoadedBooking, policyColumns } from "./bookings";
import {
  type ChangeMessagesContext,
  messageLocationColumns,
  locationStaffNames,
  settingsRead,
} from "../../messages/queries/messages";
import { availabilityRead, shiftDate } from "../../calendar/queries/availability";

/*
 * What a change of a series reads, in one batch: the series with every
 * occurrence, the availability a reschedule checks, the messages' context.
 * Its writes are in `./series-change`.
 */

export type SeriesRow = typeof series.$inferSelect;

/** A series and every occurrence of it, each as a booking change loads it. */
export interface LoadedSeries {
  series: SeriesRow;
  /** Its occurrences, earliest first. */
  bookings: LoadedBooking[];
}

/** Subqueries on the series, so everything is read in one batch with it. */
function seriesRefs(scope: Scope, seriesId: string) {
  const { db } = scope;
  const own = whereIn(scope, bookings, eq(bookings.seriesId, seriesId));
  const column = (c: SQL) =>
    db
      .select({ id: sql<string>`${c}` })
      .from(bookings)
      .where(own);
  const ofSeries = (c: SQL) =>
    db
      .select({ id: sql<string>`${c}` })
      .from(series)
      .where(whereIn(scope, series, eq(series.id, seriesId)));
  return {
    own,
    bookingIds: column(sql`${bookings.id}`),
    orderIds: column(sql`${bookings.orderId}`),
    statusIds: column(sql`${bookings.statusId}`),
    locationId: ofSeries(sql`${series.locationId}`),
    customerId: ofSeries(sql`${series.customerId}`),
  };
}

/** The ids of a series' occurrences, as a subquery for a read in the same batch. */
export const seriesBookingIds = (scope: Scope, seriesId: string) =>
  seriesRefs(scope, seriesId).bookingIds;

/**
 * A series with its occurrences, their services (and every service on their
 * orders, for the totals), orders, statuses, calendar entries and the
 * location's policy: one batch of eight statements whatever the number of
 * occurrences. Null when the series is not in this workspace.
 */
export function seriesRead(scope: Scope, seriesId: string) {
  const { db } = scope;
  const refs = seriesRefs(scope, seriesId);
  return read(
    [
      db
        .select()
        .from(series)
        .where(whereIn(scope, series, eq(series.id, seriesId))),
      db.select().from(bookings).where(refs.own).orderBy(asc(bookings.startAt), asc(bookings.id)),
      db
        .select()
        .from(orders)
        .where(whereIn(scope, orders, inSubquery(orders.id, refs.orderIds))),
      // Every booking on their orders (a cart's other bookings too), for the orders' totals.
      db
        .select({ id: bookings.id, orderId: bookings.orderId })
        .from(bookings)
        .where(whereIn(scope, bookings, inSubquery(bookings.orderId, refs.orderIds))),
      db
        .select()
        .from(bookingServices)
        .where(
          whereIn(
            scope,
            bookingServices,
            inSubquery(
              bookingServices.bookingId,
              db
                .select({ id: bookings.id })
                .from(bookings)
                .where(whereIn(scope, bookings, inSubquery(bookings.orderId, refs.orderIds))),
            ),
          ),
        ),
      db
        .select()
        .from(bookingStatuses)
        .where(whereIn(scope, bookingStatuses, inSubquery(bookingStatuses.id, refs.statusIds))),
      db
        .select()
        .from(calendarEntries)
        .where(
          whereIn(scope, calendarEntries, inSubquery(calendarEntries.sourceId, refs.bookingIds)),
        ),
      db
        .select(policyColumns)
        .from(locations)
        .where(whereIn(scope, locations, inSubquery(locations.id, refs.locationId))),
    ] as const,
    ([
      found,
      rows,
      orderRows,
      siblings,
      services,
      statuses,
      entries,
      policies,
    ]): LoadedSeries | null => {
      const [s] = found;
      const [policy] = policies;
      if (!s || !policy) return null;
      const orderOf = new Map(siblings.map((b) => [b.id, b.orderId]));
      const loaded = rows.flatMap((b): LoadedBooking[] => {
        const order = orderRows.find((o) => o.id === b.orderId);
        const status = statuses.find((st) => st.id === b.statusId);
        if (!order || !status) return [];
        const orderServices = services.filter((row) => orderOf.get(row.bookingId) === b.orderId);
        return [
          {
            booking: b,
            order,
            status,
            policy,
            orderServices,
            services: orderServices.filter((row) => row.bookingId === b.id),
            entries: entries.filter((e) => e.sourceId === b.id),
            // A series change never touches goods, staffers named in the request or accounts.
            posGoodsOnOrder: 0,
            staffer: null,
            newStatus: null,
            account: null,
          },
        ];
      });
      return { series: s, bookings: loaded };
    },
  );
}

/**
 * What a series change's messages need, through subqueries on the series: the
 * settings, its customer, its location's name and zone, the location's staff
 * first names, and the reminders of every occurrence still to go out.
 */
export function seriesMessagesRead(scope: Scope, seriesId: string): Read<ChangeMessagesContext> {
  const { db } = scope;
  const refs = seriesRefs(scope, seriesId);
  const rest = read(
    [
      db
        .select()
        .from(customers)
        .where(whereIn(scope, customers, inSubquery(customers.id, refs.customerId))),
      db
        .select(messageLocationColumns)
        .from(locations)
        .where(whereIn(scope, locations, inSubquery(locations.id, refs.locationId))),
      locationStaffNames(scope, refs.locationId),
      db
        .select()
        .from(messages)
        .where(
          whereIn(
            scope,
            messages,
            inSubquery(messages.bookingId, refs.bookingIds),
            eq(messages.kind, "booking-reminder"),
            eq(messages.status, "scheduled"),
          ),
        ),
    ] as const,
    ([customer, location, names, reminders]) => ({
      customer: customer[0] ?? null,
      location: location[0] ?? null,
      stafferNames: new Map(names.map((s): [string, string] => [s.id, s.firstName])),
      reminders,
    }),
  );
  const parts = named({ settings: settingsRead(scope), rest });
  return {
    statements: parts.statements,
    parse: (rows) => {
      const { settings, rest: context } = parts.parse(rows);
      return { settings, ...context };
    },
  } satisfies Read<ChangeMessagesContext>;
}

/**
 * The availability a series reschedule checks: the occurrences' staffers and
 * services at the location, from the day before the new first start until
 * two days after the last occurrence's end moved by the same amount (a local
 * shift differs from the instant one by at most a DST change), read in the
 * series' own batch.
 */
export function seriesAvailabilityRead(
  scope: Scope,
  seriesId: string,
  from: { bookingId: string; start: number },
) {
  const { db } = scope;
  const refs = seriesRefs(scope, seriesId);
  const itsServices = whereIn(
    scope,
    bookingServices,
    inSubquery(bookingServices.bookingId, refs.bookingIds),
  );
  const fromStart = db
    .select({ v: bookings.startAt })
    .from(bookings)
    .where(and(refs.own, eq(bookings.id, from.bookingId)));
  const lastEnd = db
    .select({ v: sql<number>`max(${bookings.endAt})` })
    .from(bookings)
    .where(refs.own);
  return availabilityRead(scope, {
    locationId: refs.locationId,
    serviceIds: db
      .select({ id: bookingServices.serviceId })
      .from(bookingServices)
      .where(itsServices),
    stafferIds: db
      .select({ id: bookingServices.stafferId })
      .from(bookingServices)
      .where(itsServices),
    fromDate: shiftDate(new Date(from.start).toISOString().slice(0, 10), -1),
    toDate: sql`coalesce(date(((${lastEnd}) - (${fromStart}) + ${from.start}) / 1000, 'unixepoch', '2 days'), ${shiftDate(new Date(from.start).toISOString().slice(0, 10), 2)})`,
  });
}
