import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { locations } from "./locations";
import { staffers } from "./staff";
import { workspaces } from "./workspaces";

export const blockedSpots = sqliteTable(
  "blocked_spots",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    stafferId: text("staffer_id")
      .notNull()
      .references(() => staffers.id),
    locationId: text("location_id")
      .notNull()
      .references(() => locations.id),
    /** The instants exactly as the client sent them (the reference: "stored exactly as sent"). */
    startsAtRaw: text("starts_at_raw").notNull(),
    endsAtRaw: text("ends_at_raw").notNull(),
    startsAt: integer("starts_at").notNull(),
    endsAt: integer("ends_at").notNull(),
    comment: text("comment"),
    class: text("class"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("blocked_spots_staffer_idx").on(t.stafferId, t.startsAt)],
);

/**
 * Every interval of a staffer's busy time (booked services with their buffer,
 * blocked spots), written in the same batch as the record it belongs to. It is
 * what slot search reads; the StafferCalendar object holds the same intervals
 * and is what decides a claim.
 */
export const calendarEntries = sqliteTable(
  "calendar_entries",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    stafferId: text("staffer_id")
      .notNull()
      .references(() => staffers.id),
    locationId: text("location_id").notNull(),
    kind: text("kind", { enum: ["booking", "blocked", "held"] }).notNull(),
    /** The booking, blocked spot or reservation (`held`) this interval belongs to. */
    sourceId: text("source_id").notNull(),
    startsAt: integer("starts_at").notNull(),
    endsAt: integer("ends_at").notNull(),
    /** Reservations only: the interval is busy until this instant, then it is as if gone. */
    expiresAt: integer("expires_at"),
  },
  (t) => [
    // Slot search: one staffer's intervals that start before the range ends.
    index("calendar_entries_staffer_start_idx").on(t.stafferId, t.startsAt),
    index("calendar_entries_source_idx").on(t.sourceId),
  ],
);

/**
 * Holds a calendar object has settled on its own (an expired lease, or a write
 * that failed ambiguously). The settling batch inserts the hold's id here and
 * reads D1 in the same transaction; every calendar write's batch is guarded by
 * "my hold is not fenced". So a write either committed before the settlement
 * (which then sees its rows) or can never commit: a late write cannot bring
 * back time the calendar already gave away.
 */
export const holdFences = sqliteTable("hold_fences", {
  holdId: text("hold_id").primaryKey(),
  createdAt: integer("created_at").notNull(),
});
