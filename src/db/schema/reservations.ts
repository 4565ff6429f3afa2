import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { jsonText } from "./json-text";
import { locations } from "./locations";
import { StoredPaymentTermsSchema } from "./payments";
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
    /**
     * The kind of API key that made it. A publishable key's holds are capped
     * per holder and give way to staff writes (they drop the whole hold).
     */
    keyKind: text("key_kind", { enum: ["secret", "publishable"] })
      .notNull()
      .default("secret"),
    /**
     * Publishable keys only: SHA-256 of the key id and the client address, so
     * the cap counts per visitor without storing the address itself.
     */
    holder: text("holder"),
    /** What its services' payment policies ask of a customer (null: nothing), fixed when it is made. */
    payment: jsonText("payment", "reservations", StoredPaymentTermsSchema),
  },
  (t) => [
    index("reservations_expires_idx").on(t.expiresAt),
    // The cap counts a holder's live holds in the write that adds one.
    index("reservations_holder_idx").on(t.workspaceId, t.holder, t.expiresAt),
    // Staff list a location's holds in creation order.
    index("reservations_location_idx").on(t.workspaceId, t.locationId, t.createdAt),
  ],
);
