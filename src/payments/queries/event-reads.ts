import { and, eq } from "drizzle-orm";
import type { Database } from "../../db/client";
import { paymentCheckouts, paymentProviderEvents, reservations, workspaces } from "../../db/schema";

/**
 * What a provider event is checked against first, in one round trip: whether
 * it was handled already, and the checkout its session belongs to (if it names one).
 */
export async function eventRead(db: Database, eventId: string, sessionId: string | null) {
  const [handled, checkout] = await db.batch([
    db
      .select({ id: paymentProviderEvents.id })
      .from(paymentProviderEvents)
      .where(eq(paymentProviderEvents.id, eventId)),
    db
      .select()
      .from(paymentCheckouts)
      .where(eq(paymentCheckouts.sessionId, sessionId ?? "")),
  ]);
  return { handled: handled.length > 0, checkout: sessionId ? (checkout[0] ?? null) : null };
}

/** A paid checkout's workspace and reservation, in one round trip. */
export async function checkoutContext(db: Database, workspaceId: string, reservationId: string) {
  const [workspace, reservation] = await db.batch([
    db.select().from(workspaces).where(eq(workspaces.id, workspaceId)),
    db
      .select()
      .from(reservations)
      .where(and(eq(reservations.workspaceId, workspaceId), eq(reservations.id, reservationId))),
  ]);
  return { workspace: workspace[0] ?? null, reservation: reservation[0] ?? null };
}
