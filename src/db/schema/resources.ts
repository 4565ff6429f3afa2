import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { services } from "./catalogue";
import { locations } from "./locations";
import { workspaces } from "./workspaces";

export const RESOURCE_KINDS = ["room", "chair", "equipment", "other"] as const;

/**
 * A room, chair or piece of equipment of one location. Each of its `quantity`
 * units is a calendar of its own (busy time only: a unit is free whenever it
 * is not busy), claimed like a staffer's.
 */
export const resources = sqliteTable(
  "resources",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    locationId: text("location_id")
      .notNull()
      .references(() => locations.id),
    name: text("name").notNull(),
    kind: text("kind", { enum: RESOURCE_KINDS }).notNull(),
    quantity: integer("quantity").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    index("resources_workspace_created_idx").on(t.workspaceId, t.createdAt, t.id),
    index("resources_location_idx").on(t.locationId),
  ],
);

/** The resources a service needs: one unit of each for its whole duration and buffer. */
export const serviceResources = sqliteTable(
  "service_resources",
  {
    workspaceId: text("workspace_id").notNull(),
    serviceId: text("service_id")
      .notNull()
      .references(() => services.id),
    resourceId: text("resource_id")
      .notNull()
      .references(() => resources.id),
  },
  (t) => [
    primaryKey({ columns: [t.serviceId, t.resourceId] }),
    index("service_resources_resource_idx").on(t.resourceId),
  ],
);

/** Time a resource is out of use (maintenance): one unit, or all of them when `unit` is null. */
export const resourceBlocks = sqliteTable(
  "resource_blocks",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    resourceId: text("resource_id")
      .notNull()
      .references(() => resources.id),
    unit: integer("unit"),
    startsAt: integer("starts_at").notNull(),
    endsAt: integer("ends_at").notNull(),
    comment: text("comment"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("resource_blocks_resource_idx").on(t.resourceId, t.startsAt)],
);
