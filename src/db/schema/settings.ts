import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { locations } from "./locations";
import { workspaces } from "./workspaces";

/** Payment accounts of a branch; qr and online need an out-of-band action before money moves. */
export const accounts = sqliteTable(
  "accounts",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    locationId: text("location_id")
      .notNull()
      .references(() => locations.id),
    name: text("name").notNull(),
    type: text("type", { enum: ["cash", "card", "qr", "online"] }).notNull(),
    /** Kept within ±(2^53 − 1) by the API and, for racing payments, by triggers (migration 0014). */
    balance: integer("balance").notNull().default(0),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("accounts_workspace_created_idx").on(t.workspaceId, t.createdAt, t.id)],
);

export const bookingStatuses = sqliteTable(
  "booking_statuses",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    name: text("name").notNull(),
    type: text("type").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("booking_statuses_workspace_idx").on(t.workspaceId, t.createdAt, t.id)],
);

export const promocodes = sqliteTable(
  "promocodes",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    code: text("code").notNull(),
    discountPercent: integer("discount_percent"),
    discountAmount: integer("discount_amount"),
    maxUses: integer("max_uses"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("promocodes_workspace_code_uq").on(t.workspaceId, t.code)],
);
