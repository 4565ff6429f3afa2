import { and, asc, eq } from "drizzle-orm";
import { accounts, bookingPayments } from "../../db/schema";
import { inSubquery } from "../../db/bounded";
import { read } from "../../db/reads";
import { type Scope, whereIn } from "../../db/scope";
import { bookingRefs } from "./booking-refs";

/**
 * What a booking's customer paid online and still has (paid less refunded),
 * and its location's online account, where that money is booked: read with
 * the booking (subqueries on it), for a complete to count it. Payments owns
 * the rows; bookings only reads them.
 */
export const paidOnlineRead = (scope: Scope, bookingId: string) =>
  read(
    [
      scope.db
        .select({ paid: bookingPayments.paidOnline, refunded: bookingPayments.refunded })
        .from(bookingPayments)
        .where(whereIn(scope, bookingPayments, eq(bookingPayments.bookingId, bookingId))),
      scope.db
        .select({ id: accounts.id })
        .from(accounts)
        .where(
          whereIn(
            scope,
            accounts,
            and(
              inSubquery(accounts.locationId, bookingRefs(scope, bookingId).locationId),
              eq(accounts.type, "online"),
            ),
          ),
        )
        .orderBy(asc(accounts.createdAt), asc(accounts.id))
        .limit(1),
    ] as const,
    ([payment, account]) => ({
      paidOnline: payment[0] ? Math.max(0, payment[0].paid - payment[0].refunded) : 0,
      onlineAccountId: account[0]?.id ?? null,
    }),
  );

export type PaidOnline = ReturnType<ReturnType<typeof paidOnlineRead>["parse"]>;
