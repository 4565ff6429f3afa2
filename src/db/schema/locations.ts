import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
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
    createdAt: integer("created_at").notNull(),
  },
  // Lists are ordered by creation inside a workspace.
  (t) => [index("locations_workspace_created_idx").on(t.workspaceId, t.createdAt, t.id)],
);
