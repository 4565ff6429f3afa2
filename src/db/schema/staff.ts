import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { jsonText, LocalIntervalsSchema, StringListSchema } from "./json-text";
import { locations } from "./locations";
import { workspaces } from "./workspaces";

export const staffers = sqliteTable(
  "staffers",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    firstName: text("first_name").notNull(),
    lastName: text("last_name"),
    email: text("email"),
    /** Only staff active in the booking widget can be booked by clients. */
    isActiveInWidget: integer("is_active_in_widget", { mode: "boolean" }).notNull().default(true),
    permissions: jsonText("permissions", "staffers", StringListSchema).notNull().default([]),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("staffers_workspace_created_idx").on(t.workspaceId, t.createdAt, t.id)],
);

export const stafferLocations = sqliteTable(
  "staffer_locations",
  {
    workspaceId: text("workspace_id").notNull(),
    stafferId: text("staffer_id")
      .notNull()
      .references(() => staffers.id),
    locationId: text("location_id")
      .notNull()
      .references(() => locations.id),
  },
  (t) => [
    primaryKey({ columns: [t.stafferId, t.locationId] }),
    // Slot search starts from a location and needs its staff.
    index("staffer_locations_location_idx").on(t.locationId),
  ],
);

/** Weekly working intervals per location; weekday 1..7 is Monday..Sunday. */
export const stafferSchedules = sqliteTable(
  "staffer_schedules",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull(),
    stafferId: text("staffer_id")
      .notNull()
      .references(() => staffers.id),
    locationId: text("location_id")
      .notNull()
      .references(() => locations.id),
    weekday: integer("weekday").notNull(),
    start: text("start").notNull(),
    end: text("end").notNull(),
  },
  (t) => [index("staffer_schedules_staffer_idx").on(t.stafferId, t.locationId)],
);

/** A date that differs from the weekly pattern: empty intervals means a day off. */
export const stafferDateOverrides = sqliteTable(
  "staffer_date_overrides",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull(),
    stafferId: text("staffer_id")
      .notNull()
      .references(() => staffers.id),
    locationId: text("location_id")
      .notNull()
      .references(() => locations.id),
    date: text("date").notNull(),
    intervals: jsonText("intervals", "staffer_date_overrides", LocalIntervalsSchema).notNull(),
  },
  (t) => [index("staffer_date_overrides_staffer_idx").on(t.stafferId, t.locationId, t.date)],
);
