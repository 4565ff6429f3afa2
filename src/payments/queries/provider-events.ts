import { eq } from "drizzle-orm";
import { paymentProviderEvents } from "../../db/schema";
import type { Database } from "../../db/client";

/** Whether a provider event was handled already (each event id is acted on once). */
export async function eventHandled(db: Database, id: string): Promise<boolean> {
  const [row] = await db
    .select({ id: paymentProviderEvents.id })
    .from(paymentProviderEvents)
    .where(eq(paymentProviderEvents.id, id));
  return row !== undefined;
}

/** Marks an event handled; in the batch of what handling it wrote, so both or neither commit. */
export const markEventHandled = (db: Database, id: string, type: string, at: number) =>
  db.insert(paymentProviderEvents).values({ id, type, receivedAt: at }).onConflictDoNothing();
