import { and, desc, eq, or, sql } from "drizzle-orm";
import { inSubquery } from "../../db/bounded";
import type { Scope } from "../../db/scope";
import { whereByKey, whereIn } from "../../db/scope";
import { read } from "../../db/reads";
import {
  bookingServices,
  bookings,
  customers,
  locations,
  rwgBookings,
  serviceLocations,
  services,
} from "../../db/schema";
import { tokenClaim } from "./token-claims";

/** What a CreateBooking asks for, in our units. */
export interface BookingAsk {
  token: string;
  locationId: string;
  serviceId: string;
  /** Epoch ms. */
  start: number;
  userId: string;
  /** E.164. */
  phone: string;
  /** Epoch ms: when the token's claim is taken. */
  now: number;
}

/**
 * Everything a CreateBooking decides before it books, in one round trip (a transaction): the
 * answer its token already got (a replay), the token's claim (ours now, or another request
 * with this token is booking), whether the merchant is this workspace's location, the
 * service as offered there (its duration and payment terms), and a live booking the same
 * Google user or phone already holds at that location, start and service (made under
 * another token: a new token never answers an earlier booking).
 */
export const bookingAskRead = (scope: Scope, ask: BookingAsk) =>
  read(
    [
      scope.db
        .select({ bookingId: rwgBookings.bookingId, response: rwgBookings.response })
        .from(rwgBookings)
        .where(whereIn(scope, rwgBookings, eq(rwgBookings.idempotencyToken, ask.token)))
        .limit(1),
      tokenClaim(scope, ask.token, ask.now),
      scope.db
        .select({ id: locations.id })
        .from(locations)
        .where(whereIn(scope, locations, eq(locations.id, ask.locationId)))
        .limit(1),
      scope.db
        .select({
          id: services.id,
          duration: services.duration,
          live: services.live,
          liveInWidget: services.liveInWidget,
          paymentPolicy: services.paymentPolicy,
          price: services.price,
          priceDiscount: services.priceDiscount,
        })
        .from(services)
        .innerJoin(
          serviceLocations,
          and(
            eq(serviceLocations.serviceId, services.id),
            eq(serviceLocations.locationId, ask.locationId),
            eq(serviceLocations.workspaceId, scope.workspaceId),
          ),
        )
        .where(whereByKey(scope, services, eq(services.id, ask.serviceId)))
        .limit(1),
      scope.db
        .select({ id: bookings.id, byUser: byUser(scope, ask.userId) })
        .from(bookings)
        .innerJoin(
          bookingServices,
          and(
            eq(bookingServices.bookingId, bookings.id),
            eq(bookingServices.serviceId, ask.serviceId),
          ),
        )
        .where(
          whereIn(
            scope,
            bookings,
            eq(bookings.startAt, ask.start),
            eq(bookings.locationId, ask.locationId),
            eq(bookings.isCanceled, false),
            or(
              inSubquery(
                bookings.id,
                scope.db
                  .select({ id: rwgBookings.bookingId })
                  .from(rwgBookings)
                  .where(whereIn(scope, rwgBookings, eq(rwgBookings.userId, ask.userId))),
              ),
              inSubquery(
                bookings.customerId,
                scope.db
                  .select({ id: customers.id })
                  .from(customers)
                  .where(whereIn(scope, customers, eq(customers.phone, ask.phone))),
              ),
            ),
          ),
        )
        // The user's own booking of the slot first: it says more than a phone's.
        .orderBy(desc(byUser(scope, ask.userId)))
        .limit(1),
    ] as const,
    ([answered, claim, location, service, overlapping]) => ({
      answered: answered[0],
      /** Our claim's `claimed_until`; undefined: another request with the token holds it. */
      claimedUntil: claim[0]?.claimedUntil,
      locationKnown: location.length > 0,
      service: service[0],
      overlapping: overlapping[0] && {
        id: overlapping[0].id,
        byUser: Boolean(overlapping[0].byUser),
      },
    }),
  );

/** The booking is one this Google user made through us. */
const byUser = (scope: Scope, userId: string) =>
  sql<number>`${inSubquery(
    bookings.id,
    scope.db
      .select({ id: rwgBookings.bookingId })
      .from(rwgBookings)
      .where(whereIn(scope, rwgBookings, eq(rwgBookings.userId, userId))),
  )}`;
