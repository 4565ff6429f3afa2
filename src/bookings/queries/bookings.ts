import type { BatchResponse } from "drizzle-orm/batch";
import { eq } from "drizzle-orm";
import { inSubquery } from "../../db/bounded";
import {
  accounts,
  bookingPayments,
  bookingServices,
  bookingStatuses,
  bookings,
  calendarEntries,
  locations,
  orderLines,
  orders,
  staffers,
} from "../../db/schema";
import type { Database } from "../../db/client";
import type { LocationPolicy } from "../rules/policy";
import { read } from "../../db/reads";
import { type Scope, whereIn } from "../../db/scope";

type ServiceRow = typeof bookingServices.$inferSelect;

/** A booking with its services, order and status: what a booking response renders. */
export interface BookingRecord {
  booking: typeof bookings.$inferSelect;
  /** This booking's services. */
  services: ServiceRow[];
  order: typeof orders.$inferSelect;
  /** Every service on the order (a cart order spans several bookings). */
  orderServices: ServiceRow[];
  status: typeof bookingStatuses.$inferSelect;
  /** The booking's location's cancel and change policy (the `policy` object). */
  policy: LocationPolicy;
  /** Money taken online for it (a checkout), when its loader read it. */
  payment?: typeof bookingPayments.$inferSelect | null;
}

/** A booking's record plus its busy time and the rows a change request refers to. */
export interface LoadedBooking extends BookingRecord {
  entries: (typeof calendarEntries.$inferSelect)[];
  posGoodsOnOrder: number;
  staffer: typeof staffers.$inferSelect | null;
  newStatus: typeof bookingStatuses.$inferSelect | null;
  account: typeof accounts.$inferSelect | null;
}

export interface Referenced {
  stafferId?: string | undefined;
  statusId?: string | undefined;
  accountId?: string | undefined;
}

/** The location columns a booking's `policy` object shows. */
export const policyColumns = {
  cancellationOffset: locations.cancellationOffset,
  changeOffset: locations.changeOffset,
  policyText: locations.policyText,
  cancellationText: locations.cancellationText,
  changeText: locations.changeText,
};

/**
 * A booking with its services, its order (and every service on that order,
 * for the totals), its status and its calendar entries, plus the staffer,
 * status or account a request names, in one D1 round trip; null when the
 * booking is not in this workspace.
 */
export async function loadBooking(
  scope: Scope,
  bookingId: string,
  ref: Referenced = {},
): Promise<LoadedBooking | null> {
  return bookingFrom(await scope.db.batch(bookingReads(scope, bookingId, ref)));
}

/**
 * `loadBooking` as a read to run beside others (`readTogether`): a change to
 * a booking reads what it needs besides (availability, vouchers) in the
 * booking's own batch, through subqueries on the booking, not after it.
 */
export const bookingRead = (scope: Scope, bookingId: string, ref: Referenced = {}) =>
  read(bookingReads(scope, bookingId, ref), bookingFrom);

function bookingReads(scope: Scope, bookingId: string, ref: Referenced) {
  const { db } = scope;
  const own = whereIn(scope, bookings, eq(bookings.id, bookingId));
  const orderId = db.select({ id: bookings.orderId }).from(bookings).where(own);
  const statusId = db.select({ id: bookings.statusId }).from(bookings).where(own);
  const locationId = db.select({ id: bookings.locationId }).from(bookings).where(own);
  const siblings = db
    .select({ id: bookings.id })
    .from(bookings)
    .where(whereIn(scope, bookings, inSubquery(bookings.orderId, orderId)));
  return [
    db.select().from(bookings).where(own),
    db
      .select()
      .from(orders)
      .where(whereIn(scope, orders, inSubquery(orders.id, orderId))),
    db
      .select()
      .from(bookingServices)
      .where(whereIn(scope, bookingServices, inSubquery(bookingServices.bookingId, siblings))),
    db
      .select()
      .from(bookingStatuses)
      .where(whereIn(scope, bookingStatuses, inSubquery(bookingStatuses.id, statusId))),
    db
      .select()
      .from(calendarEntries)
      .where(whereIn(scope, calendarEntries, eq(calendarEntries.sourceId, bookingId))),
    db
      .select({ id: orderLines.id })
      .from(orderLines)
      .where(
        whereIn(
          scope,
          orderLines,
          inSubquery(orderLines.orderId, orderId),
          eq(orderLines.kind, "good"),
        ),
      ),
    db
      .select()
      .from(staffers)
      .where(whereIn(scope, staffers, eq(staffers.id, ref.stafferId ?? ""))),
    db
      .select()
      .from(bookingStatuses)
      .where(whereIn(scope, bookingStatuses, eq(bookingStatuses.id, ref.statusId ?? ""))),
    db
      .select()
      .from(accounts)
      .where(whereIn(scope, accounts, eq(accounts.id, ref.accountId ?? ""))),
    db
      .select(policyColumns)
      .from(locations)
      .where(whereIn(scope, locations, inSubquery(locations.id, locationId))),
    db
      .select()
      .from(bookingPayments)
      .where(whereIn(scope, bookingPayments, eq(bookingPayments.bookingId, bookingId))),
  ] as const;
}

function bookingFrom(rows: BatchResponse<ReturnType<typeof bookingReads>>): LoadedBooking | null {
  const [
    booking,
    order,
    orderServices,
    status,
    entries,
    goods,
    staffer,
    newStatus,
    account,
    rules,
    payment,
  ] = rows;
  const [b] = booking;
  const [o] = order;
  const [s] = status;
  const [policy] = rules;
  if (!b || !o || !s || !policy) return null;
  return {
    booking: b,
    order: o,
    status: s,
    policy,
    orderServices,
    services: orderServices.filter((row) => row.bookingId === b.id),
    entries,
    posGoodsOnOrder: goods.length,
    staffer: staffer[0] ?? null,
    newStatus: newStatus[0] ?? null,
    account: account[0] ?? null,
    payment: payment[0] ?? null,
  };
}

/**
 * A booking with its location and service names, by id alone (not scoped to
 * a workspace: the caller checks the booking's iCal token, the only
 * credential of the feed).
 */
export async function loadBookingForFeed(db: Database, id: string) {
  // Joined rows share column names, which D1 batches cannot map: two parallel queries instead.
  const [rows, services] = await Promise.all([
    db
      .select({ booking: bookings, location: locations })
      .from(bookings)
      .innerJoin(locations, eq(locations.id, bookings.locationId))
      .where(eq(bookings.id, id)),
    db
      .select({ name: bookingServices.name })
      .from(bookingServices)
      .where(eq(bookingServices.bookingId, id))
      // In the booking's order, so an unchanged booking exports the same bytes.
      .orderBy(bookingServices.position),
  ]);
  const row = rows[0];
  return row ? { ...row, serviceNames: services.map((s) => s.name) } : null;
}
