import type { PageRequest } from "../../platform/pagination";
import type { Database } from "../../db/client";
import { bookingStatuses } from "../../db/schema";
import type { Scope } from "../../db/scope";
import { listInWorkspace } from "../../db/queries/list";

/** Every workspace starts with these; operators may add more. */
export const DEFAULT_STATUSES = [
  { name: "New", type: "new" },
  { name: "Confirmed", type: "confirmed" },
  { name: "In progress", type: "inprogress" },
  { name: "Completed", type: "completed" },
  { name: "Canceled", type: "canceled" },
] as const;

export function defaultBookingStatuses(db: Database, workspaceId: string, createdAt: number) {
  // Distinct created_at values keep the list order stable and meaningful.
  return DEFAULT_STATUSES.map((status, i) =>
    db.insert(bookingStatuses).values({
      id: crypto.randomUUID(),
      workspaceId,
      createdAt: createdAt + i,
      ...status,
    }),
  );
}

export const listBookingStatuses = (scope: Scope, page: PageRequest) =>
  listInWorkspace(scope, bookingStatuses, page);

export const insertBookingStatus = (db: Database, row: typeof bookingStatuses.$inferInsert) =>
  db.insert(bookingStatuses).values(row).returning();
