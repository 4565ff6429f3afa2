import { paymentProviderEvents } from "../../db/schema";
import type { Database } from "../../db/client";

/**
 * Marks an event handled, once what it caused is written: an event whose
 * handling failed part-way is acted on again when the provider redelivers it.
 * On the shard of the workspace the event is about, naming it (a move carries it along).
 */
export const markEventHandled = (
  db: Database,
  event: { id: string; type: string; workspaceId: string },
  at: number,
) =>
  db
    .insert(paymentProviderEvents)
    .values({ id: event.id, type: event.type, workspaceId: event.workspaceId, receivedAt: at })
    .onConflictDoNothing();
