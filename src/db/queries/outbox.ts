import { type SQL, sql } from "drizzle-orm";
import type { Database } from "../client";
import { events } from "../schema";

/** Every kind of event the outbox records; webhooks subscribe to these. */
export const EVENT_TYPES = [
  "booking-created",
  "booking-canceled",
  "booking-rescheduled",
  "booking-completed",
  "booking-status-changed",
  "booking-staffer-changed",
  "booking-service-replaced",
  "booking-notes-updated",
  "order-created",
  "order-paid",
  "order-cancelled",
  "order-refunded",
  "customer-created",
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/**
 * The outbox row for a change, to go in the same batch as the change itself.
 * `late` fills payload fields only known inside the batch (an order number
 * bumped by an earlier statement of it).
 */
export function eventStatement(
  db: Database,
  workspaceId: string,
  type: EventType,
  data: unknown,
  late: Record<string, SQL> = {},
) {
  const patches = Object.entries(late);
  const payload =
    patches.length === 0
      ? data
      : sql`json_set(${JSON.stringify(data)}, ${sql.join(
          patches.map(([field, value]) => sql`${`$.${field}`}, ${value}`),
          sql`, `,
        )})`;
  return db.insert(events).values({
    id: crypto.randomUUID(),
    workspaceId,
    type,
    payload,
    createdAt: Date.now(),
  });
}
