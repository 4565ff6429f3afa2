import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { locations } from "./locations";
import { workspaces } from "./workspaces";

/**
 * A hold on staff time while a customer fills in a form. Its busy time is in
 * `calendar_entries` (kind `held`, with the same `expires_at`); the row stays
 * after it is used or deleted (`released_at`) so a late booking can be told
 * 409 `reservation_expired` instead of 422 unknown.
 */
export const reservations = sqliteTable(
  "reservations",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    locationId: text("location_id")
      .notNull()
      .references(() => locations.id),
    /** The held items as the API shows them (JSON): start, services, staffers, times. */
    items: text("items").notNull(),
    expiresAt: integer("expires_at").notNull(),
    /** Set when a booking used the reservation or a DELETE released it. */
    releasedAt: integer("released_at"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("reservations_expires_idx").on(t.expiresAt)],
);
