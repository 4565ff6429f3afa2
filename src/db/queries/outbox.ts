import type { Database } from "../client";
import { events } from "../schema";

export type EventType =
  | "booking-created"
  | "booking-canceled"
  | "booking-rescheduled"
  | "booking-completed"
  | "booking-status-changed"
  | "booking-staffer-changed"
  | "booking-service-replaced"
  | "booking-notes-updated"
  | "order-created"
  | "order-paid"
  | "customer-created";

/** The outbox row for a change, to go in the same batch as the change itself. */
export function eventStatement(db: Database, workspaceId: string, type: EventType, data: unknown) {
  return db.insert(events).values({
    id: crypto.randomUUID(),
    workspaceId,
    type,
    payload: data,
    createdAt: Date.now(),
  });
}
