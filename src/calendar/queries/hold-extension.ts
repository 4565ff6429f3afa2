import { and, eq } from "drizzle-orm";
import { insertRows } from "../../db/bounded";
import { producing } from "../../db/effects";
import { freedByHold, freedEffects } from "../../db/queries/freed-time";
import { calendarEntries, reservations } from "../../db/schema";
import { type Scope, whereIn } from "../../db/scope";
import type { Statement } from "../../db/statement";

export type HeldEntryRow = typeof calendarEntries.$inferSelect;

/** A reservation's held entries as D1 stores them (what its calendars hold). */
export const heldEntryRows = (scope: Scope, reservationId: string) =>
  scope.db
    .select()
    .from(calendarEntries)
    .where(
      whereIn(
        scope,
        calendarEntries,
        and(eq(calendarEntries.sourceId, reservationId), eq(calendarEntries.kind, "held")),
      ),
    );

/**
 * Moves a reservation's expiry: its entries are replaced by the same time
 * under new ids that expire later (a calendar object's entry is never edited
 * in place), and the reservation's items name the new entries. The new rows
 * are freed time for the waitlist at the new expiry.
 */
export function extendHold(
  scope: Scope,
  reservationId: string,
  change: { items: string; expiresAt: number; rows: HeldEntryRow[] },
): Statement[] {
  return [
    scope.db
      .delete(calendarEntries)
      .where(
        whereIn(
          scope,
          calendarEntries,
          and(eq(calendarEntries.sourceId, reservationId), eq(calendarEntries.kind, "held")),
        ),
      ),
    ...insertRows(scope.db, calendarEntries, change.rows, freedByHold).map((s) =>
      producing(s, freedEffects),
    ),
    scope.db
      .update(reservations)
      .set({ items: change.items, expiresAt: change.expiresAt })
      .where(whereIn(scope, reservations, eq(reservations.id, reservationId))),
  ];
}
