import { count, eq, gt, min, or, type SQL, sql } from "drizzle-orm";
import { bookings } from "../../db/schema";
import { type Scope, whereIn } from "../../db/scope";

/**
 * A publishable visitor's bookings that count: created after `since`, canceled
 * or not, unless staff canceled them (a customer's cancel records `customer`).
 */
export async function visitorBookings(
  scope: Scope,
  visitor: string,
  since: number,
): Promise<{ counted: number; oldest: number | null }> {
  const [row] = await scope.db
    .select({ counted: count(), oldest: min(bookings.createdAt) })
    .from(bookings)
    .where(counted(scope, visitor, since));
  return { counted: row?.counted ?? 0, oldest: row?.oldest ?? null };
}

/** The visitor's bookings that count (as `visitorBookings` counts them). */
export const counted = (scope: Scope, visitor: string, since: number) =>
  whereIn(
    scope,
    bookings,
    eq(bookings.visitor, visitor),
    gt(bookings.createdAt, since),
    // Book-then-cancel is two messages to an address the visitor chose: both count.
    or(eq(bookings.isCanceled, false), eq(bookings.canceledBy, "customer")),
  );

/**
 * Batch condition: the visitor's counted bookings (as `visitorBookings`) and
 * `adding` more stay within `cap`.
 */
export const visitorWithinCap = (
  scope: Scope,
  visitor: string,
  since: number,
  adding: number,
  cap: number,
): SQL =>
  sql`(${scope.db
    .select({ n: count() })
    .from(bookings)
    .where(counted(scope, visitor, since))}) + ${adding} <= ${cap}`;
