import { and, asc, eq, type SQL, sql } from "drizzle-orm";
import { idIn, inSubquery, insertRows, updateEach } from "../bounded";
import { atVersion } from "../guards";
import { named, type Read, read } from "../reads";
import {
  bookingServices,
  bookingStatuses,
  bookings,
  calendarEntries,
  customers,
  events,
  locations,
  messages,
  orders,
  series,
  stafferLocations,
  staffers,
} from "../schema";
import { type Scope, whereIn } from "../scope";
import type { Statement } from "../statement";
import type { LoadedBooking } from "./bookings";
import type { BookingPatch, ServicePatch } from "./booking-change";
import { type ChangeMessagesContext, settingsRead } from "./messages";
import type { EventType } from "./outbox";
import { availabilityRead, shiftDate } from "./availability";

export type SeriesRow = typeof series.$inferSelect;

/** A series and every occurrence of it, each as a booking change loads it. */
export interface LoadedSeries {
  series: SeriesRow;
  /** Its occurrences, earliest first. */
  bookings: LoadedBooking[];
}

/** The location columns a booking's `policy` object shows. */
const policyColumns = {
  cancellationOffset: locations.cancellationOffset,
  changeOffset: locations.changeOffset,
  policyText: locations.policyText,
  cancellationText: locations.cancellationText,
  changeText: locations.changeText,
};

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
        .select({ name: locations.name, timezone: locations.timezone })
        .from(locations)
        .where(whereIn(scope, locations, inSubquery(locations.id, refs.locationId))),
      db
        .select({ id: staffers.id, firstName: staffers.firstName })
        .from(staffers)
        .where(
          whereIn(
            scope,
            staffers,
            inSubquery(
              staffers.id,
              db
                .select({ id: stafferLocations.stafferId })
                .from(stafferLocations)
                .where(inSubquery(stafferLocations.locationId, refs.locationId)),
            ),
          ),
        ),
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

/**
 * The condition a change of many bookings commits under: every one of them
 * still at the version read (one JSON parameter, whatever their number), and
 * the series at its own.
 */
export function allStillAsRead(
  read: readonly { id: string; version: number }[],
  seriesAt?: { id: string; version: number },
): SQL {
  const pairs = JSON.stringify(read.map((b) => [b.id, b.version]));
  // Parenthesised whole: a guard negates it (`not …`), which must cover every part.
  const bookingsAsRead = sql`not exists (select 1 from json_each(${pairs}) as j where not exists (select 1 from ${bookings} where ${bookings.id} = json_extract(j.value, '$[0]') and ${bookings.version} = json_extract(j.value, '$[1]')))`;
  return seriesAt
    ? sql`((${bookingsAsRead}) and ${atVersion(series, seriesAt.id, seriesAt.version)})`
    : sql`(${bookingsAsRead})`;
}

/** Each booking's own columns, versions bumped and last change `now`: one UPDATE per set of columns. */
export const updateBookings = (
  scope: Scope,
  patches: readonly ({ id: string } & BookingPatch)[],
  now: number,
): Statement[] =>
  updateEach(scope.db, bookings, patches, {
    where: (ids) => whereIn(scope, bookings, ids),
    also: { version: sql`${bookings.version} + 1`, updatedAt: now },
  });

export const updateBookedServices = (scope: Scope, patches: readonly ServicePatch[]): Statement[] =>
  updateEach(scope.db, bookingServices, patches, {
    where: (ids) => whereIn(scope, bookingServices, ids),
  });

/** The series was changed: its version moves, so a change that read it before loses. */
export const bumpSeries = (scope: Scope, seriesId: string, now: number) =>
  scope.db
    .update(series)
    .set({ version: sql`${series.version} + 1`, updatedAt: now })
    .where(whereIn(scope, series, eq(series.id, seriesId)));

/** Reminders still to go out of the canceled bookings: they never will. */
export const cancelRemindersOf = (scope: Scope, bookingIds: readonly string[]): Statement[] =>
  bookingIds.length === 0
    ? []
    : [
        scope.db
          .update(messages)
          .set({ status: "canceled" })
          .where(
            whereIn(
              scope,
              messages,
              idIn(messages.bookingId, bookingIds),
              eq(messages.kind, "booking-reminder"),
              eq(messages.status, "scheduled"),
            ),
          ),
      ];

/** Reminders re-timed and re-written, each by id (only those still scheduled move). */
export const moveReminders = (
  scope: Scope,
  moves: readonly {
    id: string;
    scheduledFor: number;
    subject: string | null;
    body: string;
    locale: string;
    status: "scheduled" | "canceled";
  }[],
): Statement[] =>
  updateEach(scope.db, messages, moves, {
    where: (ids) => whereIn(scope, messages, ids, eq(messages.status, "scheduled")),
  });

/** One outbox event per changed booking, in as few statements as their payloads allow. */
export const insertEvents = (
  scope: Scope,
  rows: readonly { type: EventType; payload: unknown }[],
  now: number,
): Statement[] =>
  insertRows(
    scope.db,
    events,
    rows.map((r) => ({
      id: crypto.randomUUID(),
      workspaceId: scope.workspaceId,
      type: r.type,
      payload: r.payload,
      createdAt: now,
    })),
  );
