import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { locations } from "./locations";
import { staffers } from "./staff";
import { workspaces } from "./workspaces";

/**
 * An ICS calendar of a staffer's whose events are busy time (their dentist).
 * Its busy intervals are `calendar_entries` rows of kind `external` whose
 * `source_id` is this row's id, written in the same batch as `seq` grows.
 */
export const externalCalendars = sqliteTable(
  "external_calendars",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    stafferId: text("staffer_id")
      .notNull()
      .references(() => staffers.id),
    /** The staffer's first location: its zone reads floating times, its id goes on the entries. */
    locationId: text("location_id")
      .notNull()
      .references(() => locations.id),
    url: text("url").notNull(),
    name: text("name"),
    /** The last 200's ETag, sent back as If-None-Match. */
    etag: text("etag"),
    /** `ok`, or why the last sync failed (`calendar_unreachable`, `calendar_invalid`): the busy time stays. */
    status: text("status").notNull(),
    lastSyncedAt: integer("last_synced_at").notNull(),
    busyCount: integer("busy_count").notNull(),
    /** VEVENTs of the last text read that could not be read and were left out (migration 0027). */
    skippedEvents: integer("skipped_events").notNull().default(0),
    /** Grows with every sync that wrote busy time; the calendar object ignores older ones. */
    seq: integer("seq").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("external_calendars_staffer_idx").on(t.stafferId, t.createdAt)],
);

export type ExternalCalendarRow = typeof externalCalendars.$inferSelect;
