import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { customers } from "./customers";
import { locations } from "./locations";
import { workspaces } from "./workspaces";

/** A recurring series: the rule its bookings were expanded from (bookings.seriesId names it). */
export const series = sqliteTable(
  "series",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    locationId: text("location_id")
      .notNull()
      .references(() => locations.id),
    customerId: text("customer_id")
      .notNull()
      .references(() => customers.id),
    /** The RRULE as given (normalised), e.g. `FREQ=WEEKLY;INTERVAL=1;BYDAY=TU,TH;COUNT=12`. */
    rule: text("rule").notNull(),
    /** Occurrences booked when the series was made. */
    count: integer("count").notNull(),
    /** Bumped by every series change; a series change commits only at the version it read. */
    version: integer("version").notNull().default(0),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("series_workspace_created_idx").on(t.workspaceId, t.createdAt)],
);
