import { index, integer, real, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { workspaces } from "./workspaces";

export const locations = sqliteTable(
  "locations",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    name: text("name").notNull(),
    /** IANA zone: every wall-clock rule of the branch (hours, slot grid, "today") lives here. */
    timezone: text("timezone").notNull(),
    slotStep: integer("slot_step").notNull().default(15),
    minNotice: integer("min_notice").notNull().default(0),
    /** Minutes before a booking's start after which a widget (publishable key) may not cancel it; 0: no limit. */
    cancellationOffset: integer("cancellation_offset").notNull().default(0),
    /** Minutes before a booking's start after which a widget may not reschedule it; 0: no limit. */
    changeOffset: integer("change_offset").notNull().default(0),
    policyText: text("policy_text"),
    cancellationText: text("cancellation_text"),
    changeText: text("change_text"),
    /** The postal address, set and cleared whole: line1, city, postal code and country are all null or all set. */
    addressLine1: text("address_line1"),
    addressLine2: text("address_line2"),
    addressCity: text("address_city"),
    addressPostalCode: text("address_postal_code"),
    /** ISO 3166-1 alpha-2, upper-case. */
    addressCountry: text("address_country"),
    /** E.164. */
    phone: text("phone"),
    /** WGS 84 degrees, both or neither (Google's merchant feed matches the listing by them). */
    latitude: real("latitude"),
    longitude: real("longitude"),
    createdAt: integer("created_at").notNull(),
  },
  // Lists are ordered by creation inside a workspace.
  (t) => [index("locations_workspace_created_idx").on(t.workspaceId, t.createdAt, t.id)],
);
