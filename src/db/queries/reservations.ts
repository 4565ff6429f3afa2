import { eq } from "drizzle-orm";
import { reservations } from "../schema";
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
