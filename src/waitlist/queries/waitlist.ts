import {
  and,
  asc,
  count,
  desc,
  eq,
  getTableColumns,
  gt,
  isNull,
  lte,
  min,
  or,
  type SQL,
  sql,
} from "drizzle-orm";
import { customerOfBooking, locationAddressColumns } from "../../db/queries/booking-parts";
import type { PageRequest } from "../../platform/pagination";
import type { Database } from "../../db/client";
import { idIn, inSubquery, insertRows } from "../../db/bounded";
import {
  bookingServices,
  bookings,
  calendarEntries,
  customers,
  locations,
  notificationSettings,
  reservations,
  serviceResources,
  serviceStaffers,
  services,
  staffers,
  waitlistDays,
  waitlistEntries,
  waitlistFreed,
  waitlistOffers,
  workspaces,
} from "../../db/schema";
import { read } from "../../db/reads";
import { counted as countedBookings } from "../../bookings/queries/booking-visitors";
import { holderLive } from "../../calendar/queries/reservations";
import { type Scope, whereIn } from "../../db/scope";
import type { Statement } from "../../db/statement";
import { listPage } from "../../db/queries/list";
import { producing } from "../../db/effects";
import type { Effect } from "../../platform/effects";

export type WaitlistEntryRow = typeof waitlistEntries.$inferSelect;
export type WaitlistDayRow = typeof waitlistDays.$inferInsert;
export type FreedRow = typeof waitlistFreed.$inferSelect;

/** An entry's offer columns when it holds none (waiting again, canceled). */
const NO_OFFER = {
  offerReservationId: null,
  offerStart: null,
  offerEnd: null,
  offerExpiresAt: null,
  offerTokenHash: null,
} as const;

/** Entries that still want time: waiting, or holding an offer. */
const open = () => or(eq(waitlistEntries.status, "waiting"), eq(waitlistEntries.status, "offered"));

/**
 * Whose open entries a cap counts: a phone's made by staff, a phone's made by
 * one widget visitor, or a visitor's.
 */
export type EntryOwner =
  { phone: string; staffOnly: true } | { phone: string; visitor: string } | { visitor: string };

const ownedBy = (who: EntryOwner) =>
  "phone" in who
    ? and(
        eq(waitlistEntries.phone, who.phone),
        "visitor" in who
          ? eq(waitlistEntries.visitor, who.visitor)
          : isNull(waitlistEntries.visitor),
      )
    : eq(waitlistEntries.visitor, who.visitor);

/** Batch condition: `who`'s open entries and one more stay within `cap`. */
export const openEntriesWithin = (scope: Scope, who: EntryOwner, cap: number): SQL =>
  sql`(${scope.db
    .select({ n: count() })
    .from(waitlistEntries)
    .where(whereIn(scope, waitlistEntries, ownedBy(who), open()))}) + 1 <= ${cap}`;

/** How many open entries `who` has now: tells a cap's refusal from other failures. */
export async function openEntries(scope: Scope, who: EntryOwner): Promise<number> {
  const [row] = await scope.db
    .select({ n: count() })
    .from(waitlistEntries)
    .where(whereIn(scope, waitlistEntries, ownedBy(who), open()));
  return row?.n ?? 0;
}

/**
 * The holds in a new entry's window, recorded as freed at their expiry (the
 * trigger that does so for later holds did not see this entry yet).
 */
export const heldExpiriesIn = (scope: Scope, entry: typeof waitlistEntries.$inferInsert) =>
  producing(recordedHolds(scope, entry), freedRowsEffects);

const recordedHolds = (scope: Scope, entry: typeof waitlistEntries.$inferInsert) =>
  scope.db
    .insert(waitlistFreed)
    .select(
      scope.db
        .select({
          id: sql<number>`null`.as("id"),
          workspaceId: calendarEntries.workspaceId,
          locationId: calendarEntries.locationId,
          stafferId: calendarEntries.stafferId,
          resourceId: calendarEntries.resourceId,
          entryId: sql<string | null>`null`.as("entry_id"),
          startsAt: calendarEntries.startsAt,
          endsAt: calendarEntries.endsAt,
          dueAt: sql<number>`${calendarEntries.expiresAt}`.as("due_at"),
          createdAt: sql<number>`${entry.createdAt}`.as("created_at"),
        })
        .from(calendarEntries)
        .where(
          whereIn(
            scope,
            calendarEntries,
            eq(calendarEntries.locationId, entry.locationId),
            eq(calendarEntries.kind, "held"),
            sql`${calendarEntries.expiresAt} > ${entry.createdAt}`,
            sql`${calendarEntries.startsAt} < ${entry.windowEnd}`,
            sql`${calendarEntries.endsAt} > ${entry.windowStart}`,
          ),
        ),
    )
    .returning(freedColumns);

const freedColumns = {
  workspaceId: waitlistFreed.workspaceId,
  locationId: waitlistFreed.locationId,
  stafferId: waitlistFreed.stafferId,
  startsAt: waitlistFreed.startsAt,
  endsAt: waitlistFreed.endsAt,
  dueAt: waitlistFreed.dueAt,
};

type FreedColumns = Pick<FreedRow, keyof typeof freedColumns>;

/** Freed time a statement recorded (and returned): for the location's desk once it committed. */
const freedEffect = (r: FreedColumns): Effect => ({ kind: "freed", ...r });

const freedRowsEffects = (result: unknown): Effect[] =>
  (Array.isArray(result) ? (result as FreedColumns[]) : []).map(freedEffect);

/**
 * A new entry, its rows of the matching index, and its own window recorded
 * as freed for it alone: time already free when it joins is offered too.
 */
export const insertEntry = (
  scope: Scope,
  row: typeof waitlistEntries.$inferInsert,
  days: WaitlistDayRow[],
): Statement[] => [
  scope.db.insert(waitlistEntries).values(row),
  ...insertRows(scope.db, waitlistDays, days),
  producing(
    scope.db.insert(waitlistFreed).values({
      workspaceId: scope.workspaceId,
      locationId: row.locationId,
      entryId: row.id,
      startsAt: row.windowStart,
      endsAt: row.windowEnd,
      dueAt: row.createdAt,
      createdAt: row.createdAt,
    }),
    [
      freedEffect({
        workspaceId: scope.workspaceId,
        locationId: row.locationId,
        stafferId: null,
        startsAt: row.windowStart,
        endsAt: row.windowEnd,
        dueAt: row.createdAt,
      }),
    ],
  ),
];

/** The workspace's entries that meet every condition. */
const entriesWhere = (scope: Scope, ...conditions: (SQL | undefined)[]) =>
  scope.db
    .select()
    .from(waitlistEntries)
    .where(whereIn(scope, waitlistEntries, ...conditions));

export async function findEntry(scope: Scope, id: string): Promise<WaitlistEntryRow | null> {
  const [row] = await entriesWhere(scope, eq(waitlistEntries.id, id));
  return row ?? null;
}

export interface EntryFilter {
  status?: WaitlistEntryRow["status"] | undefined;
  locationId?: string | undefined;
}

/** A page of the workspace's entries, oldest first (the order offers go in). */
export const listEntries = (scope: Scope, page: PageRequest, filter: EntryFilter) =>
  listPage(
    scope.db,
    waitlistEntries,
    whereIn(
      scope,
      waitlistEntries,
      filter.status ? eq(waitlistEntries.status, filter.status) : undefined,
      filter.locationId ? eq(waitlistEntries.locationId, filter.locationId) : undefined,
    ),
    [asc(waitlistEntries.createdAt), asc(waitlistEntries.id)],
    page,
  );

/** The entry leaves the list (its offer, if any, released before): no longer matched. */
export const cancelEntry = (scope: Scope, entry: WaitlistEntryRow, now: number): Statement[] => [
  scope.db
    .update(waitlistEntries)
    .set({
      status: "canceled",
      ...NO_OFFER,
      version: entry.version + 1,
      updatedAt: now,
    })
    .where(
      whereIn(
        scope,
        waitlistEntries,
        eq(waitlistEntries.id, entry.id),
        eq(waitlistEntries.version, entry.version),
      ),
    ),
  dropDays(scope, [entry.id]),
];

const dropDays = (scope: Scope, entryIds: string[]) =>
  scope.db
    .delete(waitlistDays)
    .where(whereIn(scope, waitlistDays, idIn(waitlistDays.entryId, entryIds)));

/** The matching index loses the rows of the entries that meet `where` (they wait no more). */
const dropDaysWhere = (scope: Scope, where: SQL) =>
  scope.db
    .delete(waitlistDays)
    .where(
      whereIn(
        scope,
        waitlistDays,
        inSubquery(
          waitlistDays.entryId,
          scope.db.select({ id: waitlistEntries.id }).from(waitlistEntries).where(where),
        ),
      ),
    );

/** Batch condition: the entry is still as read (nobody offered, booked or removed it since). */
export const entryAtVersion = (scope: Scope, id: string, version: number): SQL =>
  sql`exists ${scope.db
    .select({ one: sql`1` })
    .from(waitlistEntries)
    .where(
      whereIn(
        scope,
        waitlistEntries,
        eq(waitlistEntries.id, id),
        eq(waitlistEntries.version, version),
      ),
    )}`;

/**
 * A booking used this reservation: the entry it was offered to is booked, in
 * the booking's own batch (no entry was offered it: nothing happens).
 */
export const bookedThroughOffer = (
  scope: Scope,
  reservationId: string,
  bookingId: string,
  now: number,
): Statement[] => [
  scope.db
    .update(waitlistEntries)
    .set({
      status: "booked",
      bookingId,
      updatedAt: now,
      version: sql`${waitlistEntries.version} + 1`,
    })
    .where(
      whereIn(
        scope,
        waitlistEntries,
        eq(waitlistEntries.offerReservationId, reservationId),
        eq(waitlistEntries.status, "offered"),
      ),
    ),
  dropDaysWhere(
    scope,
    whereIn(scope, waitlistEntries, eq(waitlistEntries.offerReservationId, reservationId)),
  ),
];

/** The entry holds an offer: the reservation, its start and its expiry. */
export const offerMade = (
  scope: Scope,
  entry: WaitlistEntryRow,
  offer: {
    reservationId: string;
    start: number;
    end: number;
    expiresAt: number;
    tokenHash: string;
  },
  now: number,
) =>
  scope.db
    .update(waitlistEntries)
    .set({
      status: "offered",
      offerReservationId: offer.reservationId,
      offerStart: offer.start,
      offerEnd: offer.end,
      offerExpiresAt: offer.expiresAt,
      offerTokenHash: offer.tokenHash,
      version: entry.version + 1,
      updatedAt: now,
    })
    .where(whereIn(scope, waitlistEntries, eq(waitlistEntries.id, entry.id)));

// ---- the desk's run: what is due at one location ----

/** The location, the workspace's money and language, and its notification settings. */
export const deskContextRead = (scope: Scope, locationId: string) =>
  read(
    [
      scope.db
        .select()
        .from(locations)
        .where(whereIn(scope, locations, eq(locations.id, locationId))),
      scope.db
        .select({ currency: workspaces.currency, locale: workspaces.locale })
        .from(workspaces)
        .where(eq(workspaces.id, scope.workspaceId)),
      scope.db
        .select({ settings: notificationSettings.settings })
        .from(notificationSettings)
        .where(eq(notificationSettings.workspaceId, scope.workspaceId)),
    ] as const,
    ([location, workspace, settings]) => ({
      location: location[0] ?? null,
      workspace: workspace[0] ?? null,
      settings: settings[0]?.settings,
    }),
  );

/** Freed time due at `now` at the location, oldest first. */
export const dueFreedRead = (scope: Scope, locationId: string, now: number, limit: number) =>
  read(
    [
      scope.db
        .select()
        .from(waitlistFreed)
        .where(
          whereIn(
            scope,
            waitlistFreed,
            eq(waitlistFreed.locationId, locationId),
            lte(waitlistFreed.dueAt, now),
          ),
        )
        .orderBy(asc(waitlistFreed.dueAt), asc(waitlistFreed.id))
        .limit(limit),
    ] as const,
    ([rows]) => rows,
  );

/**
 * Offers that ended without a booking: expired at `now`, or their
 * reservation released (declined, deleted by staff, or taken over by a staff write).
 */
export const endedOffersRead = (scope: Scope, locationId: string, now: number, limit: number) =>
  read(
    [
      entriesWhere(
        scope,
        eq(waitlistEntries.locationId, locationId),
        eq(waitlistEntries.status, "offered"),
        or(
          lte(waitlistEntries.offerExpiresAt, now),
          sql`exists (select 1 from ${reservations} where ${reservations.id} = ${waitlistEntries.offerReservationId} and ${reservations.releasedAt} is not null)`,
        ),
      ).limit(limit),
    ] as const,
    ([rows]) => rows,
  );

/**
 * An offer ended unbooked: the entry waits again, keeping its place (or, at
 * its `maxLapses`-th lapse, expires), and the offered time joins the times it
 * passed on (never offered to it again). The reservation is marked released
 * first when it expired, in the same batch: a booking of it built just before
 * its expiry but reaching D1 after this cannot commit any more (its guard
 * wants the reservation unreleased), and a booking that committed first has
 * made the entry `booked`, which this leaves alone.
 */
export function offerLapsed(
  scope: Scope,
  entry: WaitlistEntryRow,
  maxLapses: number,
  now: number,
): Statement[] {
  const reservationId = entry.offerReservationId ?? "";
  const interval = JSON.stringify({ start: entry.offerStart, end: entry.offerEnd });
  const released = sql`exists (select 1 from ${reservations} where ${reservations.id} = ${reservationId} and ${reservations.releasedAt} is not null)`;
  return [
    scope.db
      .update(reservations)
      .set({ releasedAt: now })
      .where(
        whereIn(
          scope,
          reservations,
          eq(reservations.id, reservationId),
          isNull(reservations.releasedAt),
          lte(reservations.expiresAt, now),
        ),
      ),
    scope.db
      .update(waitlistEntries)
      .set({
        status: sql`case when ${waitlistEntries.lapses} + 1 >= ${maxLapses} then 'expired' else 'waiting' end`,
        lapses: sql`${waitlistEntries.lapses} + 1`,
        ...NO_OFFER,
        passed: sql`json_insert(${waitlistEntries.passed}, '$[#]', json(${interval}))`,
        version: sql`${waitlistEntries.version} + 1`,
        updatedAt: now,
      })
      .where(
        whereIn(
          scope,
          waitlistEntries,
          eq(waitlistEntries.id, entry.id),
          eq(waitlistEntries.status, "offered"),
          eq(waitlistEntries.offerReservationId, reservationId),
          released,
        ),
      ),
    dropDaysWhere(
      scope,
      whereIn(
        scope,
        waitlistEntries,
        eq(waitlistEntries.id, entry.id),
        eq(waitlistEntries.status, "expired"),
      ),
    ),
  ];
}

/** Waiting entries at the location whose last day is over: expired, out of the index. */
export const expireEntries = (scope: Scope, locationId: string, now: number): Statement[] => {
  const over = whereIn(
    scope,
    waitlistEntries,
    eq(waitlistEntries.locationId, locationId),
    eq(waitlistEntries.status, "waiting"),
    lte(waitlistEntries.windowEnd, now),
  );
  return [
    dropDaysWhere(scope, over),
    scope.db
      .update(waitlistEntries)
      .set({ status: "expired", updatedAt: now, version: sql`${waitlistEntries.version} + 1` })
      .where(over),
  ];
};

/** The freed rows a run handled (due by `now`, up to the last id it read). */
export const dropFreed = (scope: Scope, locationId: string, ids: number[]) =>
  scope.db
    .delete(waitlistFreed)
    .where(
      whereIn(
        scope,
        waitlistFreed,
        eq(waitlistFreed.locationId, locationId),
        sql`${waitlistFreed.id} in (select value from json_each(${JSON.stringify(ids)}))`,
      ),
    );

/**
 * Waiting entries at the location that want one of `days` for a service the
 * freed calendars serve, oldest first: key lookups in the matching index
 * (location, day, service), whatever the number of entries that wait for
 * other days or services.
 */
export function candidatesRead(
  scope: Scope,
  q: {
    locationId: string;
    days: string[];
    stafferIds: string[];
    resourceIds: string[];
    /** Services the freed time suits whatever its calendars (an offer's lapsed time). */
    serviceIds: string[];
    excluded: string[];
    limit: number;
  },
) {
  const { db } = scope;
  // The services the freed time suits: named ones, the freed staffers', the freed units'.
  const services = sql`(select value from json_each(${JSON.stringify(q.serviceIds)})
    union select ${serviceStaffers.serviceId} from ${serviceStaffers}
      where ${serviceStaffers.workspaceId} = ${scope.workspaceId}
        and ${serviceStaffers.stafferId} in (select value from json_each(${JSON.stringify(q.stafferIds)}))
    union select ${serviceResources.serviceId} from ${serviceResources}
      where ${serviceResources.workspaceId} = ${scope.workspaceId}
        and ${serviceResources.resourceId} in (select value from json_each(${JSON.stringify(q.resourceIds)})))`;
  return read(
    [
      db
        .selectDistinct(getTableColumns(waitlistEntries))
        .from(waitlistDays)
        .innerJoin(waitlistEntries, eq(waitlistEntries.id, waitlistDays.entryId))
        .where(
          and(
            // Key lookups in the matching index (location, day, service), oldest first.
            eq(waitlistDays.workspaceId, scope.workspaceId),
            eq(waitlistDays.locationId, q.locationId),
            idIn(waitlistDays.day, q.days),
            sql`${waitlistDays.serviceId} in ${services}`,
            // The entry by its id alone: unary + keeps SQLite from scanning the location's
            // entries through their own index instead (every waiting entry there).
            sql`+${waitlistEntries.workspaceId} = ${scope.workspaceId}`,
            sql`+${waitlistEntries.status} = 'waiting'`,
            sql`${waitlistDays.entryId} not in (select value from json_each(${JSON.stringify(q.excluded)}))`,
          ),
        )
        .orderBy(asc(waitlistEntries.createdAt), asc(waitlistEntries.id))
        .limit(q.limit),
    ] as const,
    ([rows]) => rows,
  );
}

/** One waiting entry (a new entry's own window is matched against it alone). */
export const waitingEntryRead = (scope: Scope, id: string) =>
  read(
    [
      entriesWhere(scope, eq(waitlistEntries.id, id), eq(waitlistEntries.status, "waiting")),
    ] as const,
    ([rows]) => rows,
  );

/**
 * When the location's desk must look again: the next freed time coming due
 * (a hold's expiry), the first offer to expire, the first waiting entry whose
 * window ends.
 */
export const nextDueRead = (scope: Scope, locationId: string) =>
  read(
    [
      scope.db
        .select({ at: min(waitlistFreed.dueAt) })
        .from(waitlistFreed)
        .where(whereIn(scope, waitlistFreed, eq(waitlistFreed.locationId, locationId))),
      scope.db
        .select({ at: min(waitlistEntries.offerExpiresAt) })
        .from(waitlistEntries)
        .where(
          whereIn(
            scope,
            waitlistEntries,
            eq(waitlistEntries.locationId, locationId),
            eq(waitlistEntries.status, "offered"),
          ),
        ),
      scope.db
        .select({ at: min(waitlistEntries.windowEnd) })
        .from(waitlistEntries)
        .where(
          whereIn(
            scope,
            waitlistEntries,
            eq(waitlistEntries.locationId, locationId),
            eq(waitlistEntries.status, "waiting"),
          ),
        ),
    ] as const,
    (rows) => {
      const ats = rows.map((r) => r[0]?.at ?? null).filter((a): a is number => a !== null);
      return ats.length > 0 ? Math.min(...ats) : null;
    },
  );

// ---- waking desks up ----

/** Locations with freed time overdue by `before` (a wake-up that never arrived), for the cron. */
export async function overdueFreed(
  db: Database,
  before: number,
  limit: number,
): Promise<{ workspaceId: string; locationId: string }[]> {
  return db
    .selectDistinct({
      workspaceId: waitlistFreed.workspaceId,
      locationId: waitlistFreed.locationId,
    })
    .from(waitlistFreed)
    .where(lte(waitlistFreed.dueAt, before))
    .orderBy(desc(waitlistFreed.workspaceId))
    .limit(limit);
}

/**
 * What an offer link's token opens, in any workspace (the link carries no
 * workspace), in one round trip: the entry whose current offer it is, that
 * offer's reservation, and the workspace's money, language and country.
 */
export async function offerByToken(db: Database, tokenHash: string) {
  const [row] = await db
    .select({
      entry: waitlistEntries,
      reservation: reservations,
      workspace: {
        currency: workspaces.currency,
        locale: workspaces.locale,
        country: workspaces.country,
        brandName: workspaces.brandName,
        brandLogoUrl: workspaces.brandLogoUrl,
        brandAccentColor: workspaces.brandAccentColor,
      },
      // A booked entry's booking, and the phone of whom it is now: an offer booked through
      // its link shows it (`bookedOffer`), in the same statement.
      booked: {
        id: bookings.id,
        startAt: bookings.startAt,
        endAt: bookings.endAt,
        customerId: bookings.customerId,
        customerPhone: customers.phone,
      },
    })
    .from(waitlistEntries)
    .innerJoin(workspaces, eq(workspaces.id, waitlistEntries.workspaceId))
    .leftJoin(
      reservations,
      and(
        eq(reservations.id, waitlistEntries.offerReservationId),
        eq(reservations.workspaceId, waitlistEntries.workspaceId),
      ),
    )
    .leftJoin(
      bookings,
      and(
        eq(bookings.id, waitlistEntries.bookingId),
        eq(bookings.workspaceId, waitlistEntries.workspaceId),
      ),
    )
    .leftJoin(customers, customerOfBooking)
    .where(eq(waitlistEntries.offerTokenHash, tokenHash))
    .limit(1);
  return row ?? null;
}

/** What an offer's page shows besides the entry: the location (with its address and phone), service names, staff first names. */
export const offerDetailsRead = (
  scope: Scope,
  q: { locationId: string; serviceIds: string[]; stafferIds: string[] },
) =>
  read(
    [
      scope.db
        .select({
          name: locations.name,
          timezone: locations.timezone,
          // The salon the page shows: the location's address and phone.
          ...locationAddressColumns,
          phone: locations.phone,
        })
        .from(locations)
        .where(whereIn(scope, locations, eq(locations.id, q.locationId))),
      scope.db
        .select({ id: services.id, name: services.name })
        .from(services)
        .where(whereIn(scope, services, idIn(services.id, q.serviceIds))),
      scope.db
        .select({ id: staffers.id, firstName: staffers.firstName })
        .from(staffers)
        .where(whereIn(scope, staffers, idIn(staffers.id, q.stafferIds))),
    ] as const,
    ([location, serviceRows, stafferRows]) => ({
      location: location[0] ?? null,
      serviceNames: new Map(serviceRows.map((s) => [s.id, s.name])),
      stafferNames: new Map(stafferRows.map((s) => [s.id, s.firstName])),
    }),
  );

/**
 * The services of an offer's booking as they are now, in order: what its page
 * lists once the offer's reservation (the held items) was pruned.
 */
export const bookedServicesRead = (scope: Scope, bookingId: string) =>
  read(
    [
      scope.db
        .select({
          service_uuid: bookingServices.serviceId,
          staffer_uuid: bookingServices.stafferId,
          startsAt: bookingServices.reservedOn,
          endsAt: bookingServices.reservedUntil,
        })
        .from(bookingServices)
        .where(whereIn(scope, bookingServices, eq(bookingServices.bookingId, bookingId)))
        .orderBy(asc(bookingServices.position)),
    ] as const,
    ([rows]) => rows,
  );

// ---- offers to entries a publishable key joined ----

const visitorOffersSince = (scope: Scope, visitor: string, since: number) =>
  whereIn(
    scope,
    waitlistOffers,
    eq(waitlistOffers.visitor, visitor),
    gt(waitlistOffers.createdAt, since),
  );

const workspaceOffersSince = (scope: Scope, since: number) =>
  whereIn(scope, waitlistOffers, gt(waitlistOffers.createdAt, since));

/**
 * What a joining visitor has used of the bounds an offer to its entry must
 * stay within, in one round trip: its live holds (reservations and
 * outstanding offers), its bookings of the window, its offers of the window,
 * and the workspace's offers to widget entries of the window.
 */
export const publicOfferUseRead = (
  scope: Scope,
  visitor: string,
  now: number,
  since: { offers: number; bookings: number },
) =>
  read(
    [
      scope.db
        .select({ n: count() })
        .from(reservations)
        .where(holderLive(scope, visitor, now)),
      scope.db
        .select({ n: count() })
        .from(bookings)
        .where(countedBookings(scope, visitor, since.bookings)),
      scope.db
        .select({ n: count() })
        .from(waitlistOffers)
        .where(visitorOffersSince(scope, visitor, since.offers)),
      scope.db
        .select({ n: count() })
        .from(waitlistOffers)
        .where(workspaceOffersSince(scope, since.offers)),
    ] as const,
    ([holds, booked, offers, workspace]) => ({
      holds: holds[0]?.n ?? 0,
      bookings: booked[0]?.n ?? 0,
      offers: offers[0]?.n ?? 0,
      workspaceOffers: workspace[0]?.n ?? 0,
    }),
  );

/**
 * Batch conditions of an offer to a widget entry (placed before `offerRecorded`):
 * one more offer stays within the visitor's and the workspace's bounds of the window.
 */
export const publicOfferWithin = (
  scope: Scope,
  visitor: string,
  since: number,
  caps: { perVisitor: number; perWorkspace: number },
): SQL[] => [
  sql`(${scope.db
    .select({ n: count() })
    .from(waitlistOffers)
    .where(visitorOffersSince(scope, visitor, since))}) + 1 <= ${caps.perVisitor}`,
  sql`(${scope.db.select({ n: count() }).from(waitlistOffers).where(workspaceOffersSince(scope, since))}) + 1 <= ${caps.perWorkspace}`,
];

/** An offer to a widget entry, counted until `expiresAt`. */
export const offerRecorded = (
  scope: Scope,
  entry: { id: string; visitor: string },
  now: number,
  expiresAt: number,
) =>
  scope.db.insert(waitlistOffers).values({
    workspaceId: scope.workspaceId,
    entryId: entry.id,
    visitor: entry.visitor,
    createdAt: now,
    expiresAt,
  });
