import { and, asc, count, eq, gt, isNull, min, type SQL, sql } from "drizzle-orm";
import type { PageRequest } from "../../platform/pagination";
import { idIn } from "../../db/bounded";
import { freedByDelete, freedEffects } from "../../db/queries/freed-time";
import { producing } from "../../db/effects";
import {
  bookings,
  calendarEntries,
  customers,
  holdFences,
  paymentCheckouts,
  reservations,
  workspaces,
} from "../../db/schema";
import { normalisePhone } from "../../platform/rules/phone";
import { customerOfBooking } from "../../db/queries/booking-parts";
import { confirmationsJson, parseConfirmations, type SentTo } from "../../db/queries/confirmations";
import { type Scope, whereIn } from "../../db/scope";
import type { Statement } from "../../db/statement";

export type ReservationRow = typeof reservations.$inferSelect;

/** One reservation of the workspace, used, released and expired ones included. */
export async function findReservation(scope: Scope, id: string): Promise<ReservationRow | null> {
  const [row] = await scope.db
    .select()
    .from(reservations)
    .where(whereIn(scope, reservations, eq(reservations.id, id)));
  return row ?? null;
}

/** A reservation's hosted checkout as the reservation shows it (null: none was started). */
export interface ReservationCheckout {
  status: (typeof paymentCheckouts.$inferSelect)["status"];
  bookingId: string | null;
  /**
   * The booking it became, as its manage link is signed for, and whom its
   * confirmation went to (read with it; only by `findReservationWithCheckout`).
   */
  booked?: { booking: ManagedRef; sentTo: SentTo[] } | null;
}

/** What a booking's manage link is signed for. */
export interface ManagedRef {
  id: string;
  workspaceId: string;
  customerId: string;
  endAt: number;
}

/** A reservation with its checkout, read together (a left join: one statement). */
export interface ReservationWithCheckout {
  row: ReservationRow;
  checkout: ReservationCheckout | null;
}

const checkoutColumns = { status: paymentCheckouts.status, bookingId: paymentCheckouts.bookingId };

const checkoutOfReservation = and(
  eq(paymentCheckouts.reservationId, reservations.id),
  eq(paymentCheckouts.workspaceId, reservations.workspaceId),
);

const withCheckout = (r: {
  row: ReservationRow;
  checkout: { status: ReservationCheckout["status"] | null; bookingId: string | null } | null;
}): ReservationWithCheckout => ({
  row: r.row,
  // status is never null in a checkout row: a null one is the left join finding none.
  checkout: r.checkout?.status
    ? { status: r.checkout.status, bookingId: r.checkout.bookingId }
    : null,
});

/**
 * One reservation of the workspace (used, released and expired ones
 * included) with its checkout, if one was started: one statement.
 */
export async function findReservationWithCheckout(
  scope: Scope,
  id: string,
): Promise<ReservationWithCheckout | null> {
  const [found] = await scope.db
    .select({
      row: reservations,
      checkout: checkoutColumns,
      // The booking the checkout became and its confirmations, in the same statement.
      booked: {
        customerId: bookings.customerId,
        endAt: bookings.endAt,
        sentTo: confirmationsJson(bookings.workspaceId, bookings.id),
        customerPhone: customers.phone,
      },
      // Whose the checkout was: the phone its customer fields gave, read in the workspace's country.
      paidBy: sql<string | null>`json_extract(${paymentCheckouts.customer}, '$.customer_phone')`,
      country: workspaces.country,
    })
    .from(reservations)
    .innerJoin(workspaces, eq(workspaces.id, reservations.workspaceId))
    .leftJoin(paymentCheckouts, checkoutOfReservation)
    .leftJoin(
      bookings,
      and(
        eq(bookings.id, paymentCheckouts.bookingId),
        eq(bookings.workspaceId, paymentCheckouts.workspaceId),
      ),
    )
    .leftJoin(customers, customerOfBooking)
    .where(whereIn(scope, reservations, eq(reservations.id, id)));
  if (!found) return null;
  const { checkout } = withCheckout(found);
  const booking = found.booked;
  const bookingId = checkout?.bookingId;
  // A booking staff have since handed to another customer is no longer the payer's: its
  // manage link (and where its confirmation went) is not theirs to be shown.
  const stillTheirs =
    booking?.customerPhone != null &&
    normalisePhone(found.paidBy ?? "", found.country) === booking.customerPhone;
  return {
    row: found.row,
    checkout: checkout && {
      ...checkout,
      booked:
        bookingId && booking?.customerId && booking.endAt !== null && stillTheirs
          ? {
              booking: {
                id: bookingId,
                workspaceId: scope.workspaceId,
                customerId: booking.customerId,
                endAt: booking.endAt,
              },
              sentTo: parseConfirmations(booking.sentTo ?? "[]", bookingId),
            }
          : null,
    },
  };
}

/** The stored items of these reservations (one parameter whatever their number). */
export async function reservationItems(
  scope: Scope,
  ids: readonly string[],
): Promise<{ id: string; items: string }[]> {
  if (ids.length === 0) return [];
  return scope.db
    .select({ id: reservations.id, items: reservations.items })
    .from(reservations)
    .where(whereIn(scope, reservations, idIn(reservations.id, ids)));
}

/** Ends a reservation (used by a booking, or released): its held entries go, and it is marked. */
export const endReservation = (scope: Scope, id: string, at: number) => [
  producing(
    scope.db
      .delete(calendarEntries)
      .where(whereIn(scope, calendarEntries, eq(calendarEntries.sourceId, id)))
      .returning(freedByDelete),
    freedEffects,
  ),
  scope.db
    .update(reservations)
    .set({ releasedAt: at })
    .where(whereIn(scope, reservations, eq(reservations.id, id), isNull(reservations.releasedAt))),
];

/** Unused, not deleted, and not expired at `now`: exact to the millisecond, whatever the alarm did. */
export const isLive = (row: ReservationRow, now: number) =>
  row.releasedAt === null && row.expiresAt > now;

/** Batch condition: the reservation is unused, not released and unexpired at `now` (`isLive` in SQL). */
export const reservationStillLive = (id: string, now: number): SQL =>
  sql`exists (select 1 from ${reservations} where ${reservations.id} = ${id} and ${reservations.releasedAt} is null and ${reservations.expiresAt} > ${now})`;

/** Unused, not deleted and unexpired at `now`. */
const live = (now: number) => and(isNull(reservations.releasedAt), gt(reservations.expiresAt, now));

/** A publishable holder's live reservations: how many, and when the first of them expires. */
export async function holderHolds(
  scope: Scope,
  holder: string,
  now: number,
): Promise<{ live: number; firstExpiry: number | null }> {
  const [row] = await scope.db
    .select({ live: count(), firstExpiry: min(reservations.expiresAt) })
    .from(reservations)
    .where(holderLive(scope, holder, now));
  return { live: row?.live ?? 0, firstExpiry: row?.firstExpiry ?? null };
}

/** A publishable holder's live reservations (also the waitlist's count of a visitor's holds). */
export const holderLive = (scope: Scope, holder: string, now: number) =>
  whereIn(scope, reservations, eq(reservations.holder, holder), live(now));

/**
 * Batch condition: the holder's live reservations at `now` (as `holderHolds`
 * counts) and `adding` more stay within `cap`.
 */
export const holderWithinCap = (
  scope: Scope,
  holder: string,
  now: number,
  adding: number,
  cap: number,
): SQL =>
  sql`(${scope.db
    .select({ n: count() })
    .from(reservations)
    .where(holderLive(scope, holder, now))}) + ${adding} <= ${cap}`;

/** A calendar entry's owner columns, as `endDisplaced` reports the entries it removed. */
export interface EndedEntry {
  id: string;
  stafferId: string | null;
  resourceId: string | null;
  unit: number | null;
}

/**
 * Ends publishable holds a staff write took over, in that write's batch: the
 * in-flight writes of some are fenced (they can never commit now), every
 * held entry of the reservations goes (returned, so their other calendars
 * can drop them too) and the reservations are marked released.
 */
export function endDisplaced(
  scope: Scope,
  displaced: { reservationIds: string[]; inFlightHolds: string[] },
  at: number,
): { statements: Statement[]; ended: (results: unknown[]) => EndedEntry[] } {
  const { db } = scope;
  const statements: Statement[] = [];
  if (displaced.inFlightHolds.length > 0) {
    statements.push(
      db
        .insert(holdFences)
        .select(
          db
            .select({
              holdId: sql<string>`value`.as("hold_id"),
              createdAt: sql<number>`${at}`.as("created_at"),
              // The fence moves with its workspace (a move copies its rows by workspace).
              workspaceId: sql<string>`${scope.workspaceId}`.as("workspace_id"),
            })
            .from(sql`json_each(${JSON.stringify(displaced.inFlightHolds)})`)
            // SQLite reads "ON CONFLICT" after a bare FROM as a join constraint.
            .where(sql`true`),
        )
        .onConflictDoNothing(),
    );
  }
  statements.push(
    producing(
      db
        .delete(calendarEntries)
        .where(
          whereIn(
            scope,
            calendarEntries,
            eq(calendarEntries.kind, "held"),
            idIn(calendarEntries.sourceId, displaced.reservationIds),
          ),
        )
        .returning({
          id: calendarEntries.id,
          stafferId: calendarEntries.stafferId,
          resourceId: calendarEntries.resourceId,
          unit: calendarEntries.unit,
          ...freedByDelete,
        }),
      freedEffects,
    ),
    db
      .update(reservations)
      .set({ releasedAt: at })
      .where(
        whereIn(
          scope,
          reservations,
          idIn(reservations.id, displaced.reservationIds),
          isNull(reservations.releasedAt),
        ),
      ),
  );
  // The DELETE is second to last, whatever precedes these statements in the batch.
  return {
    statements,
    ended: (results) =>
      ((results.at(-2) ?? []) as EndedEntry[]).map(({ id, stafferId, resourceId, unit }) => ({
        id,
        stafferId,
        resourceId,
        unit,
      })),
  };
}

export interface ReservationFilter {
  locationId?: string | undefined;
  /** Reservations holding time of this staffer. */
  stafferId?: string | undefined;
}

/** A page of the workspace's live reservations with their checkouts, oldest first (one round trip). */
export async function listLiveReservations(
  scope: Scope,
  page: PageRequest,
  filter: ReservationFilter,
  now: number,
): Promise<{ rows: ReservationWithCheckout[]; total: number }> {
  const holdsStaffer = filter.stafferId
    ? sql`exists (select 1 from ${calendarEntries} where ${calendarEntries.workspaceId} = ${scope.workspaceId} and ${calendarEntries.sourceId} = ${reservations.id} and ${calendarEntries.stafferId} = ${filter.stafferId})`
    : undefined;
  const where = whereIn(
    scope,
    reservations,
    live(now),
    filter.locationId ? eq(reservations.locationId, filter.locationId) : undefined,
    holdsStaffer,
  );
  const { db } = scope;
  const [totals, rows] = await db.batch([
    db.select({ total: count() }).from(reservations).where(where),
    db
      .select({ row: reservations, checkout: checkoutColumns })
      .from(reservations)
      .leftJoin(paymentCheckouts, checkoutOfReservation)
      .where(where)
      .orderBy(asc(reservations.createdAt), asc(reservations.id))
      .limit(page.perPage)
      .offset(page.offset),
  ]);
  return { rows: rows.map(withCheckout), total: totals[0]?.total ?? 0 };
}
