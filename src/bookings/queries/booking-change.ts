import { and, eq, sql } from "drizzle-orm";
import { idIn, insertRows } from "../../db/bounded";
import { atVersion } from "../../db/guards";
import {
  bookingPayments,
  bookingServices,
  bookings,
  calendarEntries,
  type EntryRow,
  orders,
} from "../../db/schema";
import { type Scope, whereIn } from "../../db/scope";
export type { OrderPatch } from "../../pos/queries/order-change";
export type { EntryRow } from "../../db/schema";
import type { Statement } from "../../db/statement";
import { producing } from "../../db/effects";
import { freedByDelete, freedEffects } from "../../db/queries/freed-time";
import type { Effect } from "../../platform/effects";

type BookingRow = typeof bookings.$inferSelect;
type ServiceRow = typeof bookingServices.$inferSelect;

/** Columns a change may set on a booking (its version and last change move by themselves). */
export type BookingPatch = Partial<
  Omit<BookingRow, "id" | "workspaceId" | "orderId" | "version" | "updatedAt">
>;
/** Columns a change may set on one booked service, named by its id. */
export type ServicePatch = { id: string } & Partial<
  Omit<ServiceRow, "id" | "workspaceId" | "bookingId">
>;

/**
 * The condition a booking change commits under: the booking (and its order,
 * when the change writes it) is still at the version read.
 */
export const stillAsRead = (
  booking: { id: string; version: number },
  order: { id: string; version: number } | null,
) =>
  and(
    atVersion(bookings, booking.id, booking.version),
    order ? atVersion(orders, order.id, order.version) : undefined,
  ) ?? sql`1`;

/** The booking's one UPDATE: the change's columns, its version bumped, its last change `now`. */
export const updateBooking = (scope: Scope, id: string, patch: BookingPatch, now: number) =>
  scope.db
    .update(bookings)
    .set({ ...patch, version: sql`${bookings.version} + 1`, updatedAt: now })
    .where(whereIn(scope, bookings, eq(bookings.id, id)));

/**
 * A cancel's UPDATE of the booking. Its RETURNING says whether the booking
 * was paid online and is not settled yet: only then does the cancel hand
 * the payments module a settlement (refund, fee), so a booking without
 * online payment costs no statement more.
 */
export const cancelBookingUpdate = (
  scope: Scope,
  id: string,
  patch: BookingPatch,
  now: number,
  cause: { visitor?: string | undefined; origin?: string | undefined },
) =>
  producing(
    updateBooking(scope, id, patch, now).returning({
      workspaceId: bookings.workspaceId,
      bookingId: bookings.id,
      unsettled: sql<number>`exists (select 1 from ${bookingPayments} where ${bookingPayments.bookingId} = ${bookings.id} and ${bookingPayments.settledAt} is null)`,
    }),
    (result) => settlementEffects(result, cause),
  );

const settlementEffects = (
  result: unknown,
  cause: { visitor?: string | undefined; origin?: string | undefined },
): Effect[] =>
  (Array.isArray(result)
    ? (result as { workspaceId: string; bookingId: string; unsettled: number }[])
    : []
  ).flatMap((r) =>
    r.unsettled
      ? [
          {
            kind: "payment-settlement" as const,
            workspaceId: r.workspaceId,
            bookingId: r.bookingId,
            cause,
          },
        ]
      : [],
  );

export const updateBookedService = (scope: Scope, { id, ...patch }: ServicePatch) =>
  scope.db
    .update(bookingServices)
    .set(patch)
    .where(whereIn(scope, bookingServices, eq(bookingServices.id, id)));

/** Replaces part of a booking's busy time: the entries it no longer has go, the new ones come. */
export const replaceBusyTime = (
  scope: Scope,
  change: { removed: { id: string }[]; added: EntryRow[] },
): Statement[] => [
  ...(change.removed.length > 0
    ? [
        producing(
          scope.db
            .delete(calendarEntries)
            .where(
              whereIn(
                scope,
                calendarEntries,
                idIn(
                  calendarEntries.id,
                  change.removed.map((e) => e.id),
                ),
              ),
            )
            .returning(freedByDelete),
          freedEffects,
        ),
      ]
    : []),
  ...insertRows(scope.db, calendarEntries, change.added),
];
