import { paymentProviderEvents } from "../../db/schema";
import type { Database } from "../../db/client";

/**
 * Marks an event handled, once what it caused is written: an event whose
 * handling failed part-way is acted on again when the provider redelivers it.
 */
export const markEventHandled = (db: Database, id: string, type: string, at: number) =>
  db.insert(paymentProviderEvents).values({ id, type, receivedAt: at }).onConflictDoNothing();
