import { eq, isNull } from "drizzle-orm";
import { calendarEntries, reservations } from "../schema";
import { type Scope, whereIn } from "../scope";

export type ReservationRow = typeof reservations.$inferSelect;

/** One reservation of the workspace, used, released and expired ones included. */
export async function findReservation(scope: Scope, id: string): Promise<ReservationRow | null> {
  const [row] = await scope.db
    .select()
    .from(reservations)
    .where(whereIn(scope, reservations, eq(reservations.id, id)));
  return row ?? null;
}

/** Ends a reservation (used by a booking, or released): its held entries go, and it is marked. */
export const endReservation = (scope: Scope, id: string, at: number) => [
  scope.db
    .delete(calendarEntries)
    .where(whereIn(scope, calendarEntries, eq(calendarEntries.sourceId, id))),
  scope.db
    .update(reservations)
    .set({ releasedAt: at })
    .where(whereIn(scope, reservations, eq(reservations.id, id), isNull(reservations.releasedAt))),
];
