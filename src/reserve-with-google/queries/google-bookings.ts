import { and, asc, desc, eq } from "drizzle-orm";
import type { Scope } from "../../db/scope";
import { whereIn } from "../../db/scope";
import type { Statement } from "../../db/statement";
import { bookingServices, bookings, rwgBookings } from "../../db/schema";

export interface GoogleBookingInsert {
  bookingId: string;
  idempotencyToken: string;
  userId: string;
  response: string;
  googleVersion: number;
  now: number;
}

/**
 * The booking Google made, in the booking's own batch (`CreateRequest.alongside`): the
 * token's unique index makes a concurrent request with the same token fail as a whole,
 * so one token never makes two bookings.
 */
export const googleBookingInsert = (scope: Scope, row: GoogleBookingInsert): Statement =>
  scope.db.insert(rwgBookings).values({
    bookingId: row.bookingId,
    workspaceId: scope.workspaceId,
    idempotencyToken: row.idempotencyToken,
    userId: row.userId,
    response: row.response,
    googleVersion: row.googleVersion,
    createdAt: row.now,
  });

/** The answer a token already got (a replay of CreateBooking). */
export async function answerOfToken(scope: Scope, token: string) {
  const [row] = await scope.db
    .select({ bookingId: rwgBookings.bookingId, response: rwgBookings.response })
    .from(rwgBookings)
    .where(whereIn(scope, rwgBookings, eq(rwgBookings.idempotencyToken, token)))
    .limit(1);
  return row;
}

/** What Google's answers say of a booking now: the booking's state and its first service. */
const current = {
  bookingId: rwgBookings.bookingId,
  userId: rwgBookings.userId,
  response: rwgBookings.response,
  googleVersion: rwgBookings.googleVersion,
  locationId: bookings.locationId,
  startAt: bookings.startAt,
  endAt: bookings.endAt,
  isCanceled: bookings.isCanceled,
  isCompleted: bookings.isCompleted,
  cancelReason: bookings.cancelReason,
  cancelChargesFee: bookings.cancelChargesFee,
  version: bookings.version,
  serviceId: bookingServices.serviceId,
  stafferId: bookingServices.stafferId,
};

const joined = (scope: Scope) =>
  scope.db
    .select(current)
    .from(rwgBookings)
    .innerJoin(bookings, eq(bookings.id, rwgBookings.bookingId))
    .innerJoin(
      bookingServices,
      and(eq(bookingServices.bookingId, bookings.id), eq(bookingServices.position, 0)),
    );

export type GoogleBookingNow = Awaited<ReturnType<typeof googleBookingNow>>;

/** One booking Google made, as it is now (undefined: not Google's, or not this workspace's). */
export async function googleBookingNow(scope: Scope, bookingId: string) {
  const [row] = await joined(scope)
    .where(whereIn(scope, rwgBookings, eq(rwgBookings.bookingId, bookingId)))
    .limit(1);
  return row;
}

/** A Google user's bookings with this workspace, newest first, at most `limit`. */
export const googleBookingsOf = (scope: Scope, userId: string, limit: number) =>
  joined(scope)
    .where(whereIn(scope, rwgBookings, eq(rwgBookings.userId, userId)))
    .orderBy(desc(rwgBookings.createdAt), asc(rwgBookings.bookingId))
    .limit(limit);

/** After the booking server's own change: events at this version are Google's doing. */
export const markGoogleVersion = (scope: Scope, bookingId: string, version: number) =>
  scope.db
    .update(rwgBookings)
    .set({ googleVersion: version })
    .where(whereIn(scope, rwgBookings, eq(rwgBookings.bookingId, bookingId)));
