import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { locations } from "./locations";
import { resources } from "./resources";
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
 * Every interval of a calendar's busy time (booked services with their buffer,
 * blocked spots, reservations' holds), written in the same batch as the record
 * it belongs to. A calendar is a staffer's or one unit of a resource: exactly
 * one of `staffer_id` and `resource_id` (with `unit`) is set. It is what slot
 * search reads; the calendar object holds the same intervals and is what
 * decides a claim.
 */
export const calendarEntries = sqliteTable(
  "calendar_entries",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    stafferId: text("staffer_id").references(() => staffers.id),
    resourceId: text("resource_id").references(() => resources.id),
    /** Which unit of the resource (1 … quantity). */
    unit: integer("unit"),
    locationId: text("location_id").notNull(),
    kind: text("kind", { enum: ["booking", "blocked", "held", "external"] }).notNull(),
    /** The booking, blocked spot, reservation (`held`) or external calendar this interval belongs to. */
    sourceId: text("source_id").notNull(),
    startsAt: integer("starts_at").notNull(),
    endsAt: integer("ends_at").notNull(),
    /** Reservations only: the interval is busy until this instant, then it is as if gone. */
    expiresAt: integer("expires_at"),
    /** A publishable key's hold: a staff write over it takes the time and drops the hold. */
    yields: integer("yields", { mode: "boolean" }).notNull().default(false),
    /**
     * A group service's seat(s): the entries of one session (same service, start and
     * calendar) share this key and overlap one another; `seats` is what each one takes,
     * `capacity` the service's when it was claimed (what the claim filled up to).
     */
    sessionKey: text("session_key"),
    seats: integer("seats").notNull().default(1),
    capacity: integer("capacity"),
  },
  (t) => [
    // Slot search: one calendar's intervals that start in [window start - its longest, window end).
    index("calendar_entries_staffer_start_idx").on(t.stafferId, t.startsAt),
    index("calendar_entries_resource_start_idx").on(t.resourceId, t.unit, t.startsAt),
    index("calendar_entries_source_idx").on(t.sourceId),
    check(
      "calendar_entries_one_owner",
      // Plain column names: the check must survive the table being rebuilt and renamed.
      sql`(staffer_id IS NULL) <> (resource_id IS NULL) AND (resource_id IS NULL) = (unit IS NULL)`,
    ),
  ],
);

/**
 * The longest entry each calendar has ever had (ms), kept by triggers on
 * `calendar_entries` (migrations/0024_calendar_spans.sql); never written by
 * the app. Slot search bounds a calendar's entries below by the window's start
 * less `longest`: an entry that starts earlier has ended before the window.
 * `calendarId` is the calendar's id (src/calendar/ids.ts), the owner columns
 * are its entries'.
 */
export const calendarSpans = sqliteTable(
  "calendar_spans",
  {
    calendarId: text("calendar_id").primaryKey(),
    workspaceId: text("workspace_id").notNull(),
    stafferId: text("staffer_id"),
    resourceId: text("resource_id"),
    unit: integer("unit"),
    longest: integer("longest").notNull(),
  },
  (t) => [index("calendar_spans_resource_idx").on(t.resourceId, t.unit)],
);

/** A `calendar_entries` row: a `BusyInterval` with its identity and owner columns, as D1 stores it. */
export type EntryRow = typeof calendarEntries.$inferSelect;

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
  /** The hold's workspace: its fences move with it (null only for fences from before shards). */
  workspaceId: text("workspace_id"),
});
