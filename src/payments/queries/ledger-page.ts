import { asc, count, eq } from "drizzle-orm";
import { bookings, payments } from "../../db/schema";
import { type Scope, whereIn } from "../../db/scope";
import type { PageRequest } from "../../platform/pagination";

/**
 * A page of a booking's ledger, oldest first, with its total and whether the
 * booking is this workspace's at all: one round trip.
 */
export async function ledgerPage(scope: Scope, bookingId: string, page: PageRequest) {
  const { db } = scope;
  const own = whereIn(scope, payments, eq(payments.bookingId, bookingId));
  const [booking, totals, rows] = await db.batch([
    db
      .select({ id: bookings.id })
      .from(bookings)
      .where(whereIn(scope, bookings, eq(bookings.id, bookingId))),
    db.select({ total: count() }).from(payments).where(own),
    db
      .select()
      .from(payments)
      .where(own)
      .orderBy(asc(payments.createdAt), asc(payments.id))
      .limit(page.perPage)
      .offset(page.offset),
  ]);
  return { found: booking.length > 0, rows, total: totals[0]?.total ?? 0 };
}
