import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { workspaces } from "./workspaces";

const FIELD_MODES = ["required", "optional", "hidden"] as const;
const mode = (name: string) => text(name, { enum: FIELD_MODES }).notNull().default("optional");

/**
 * A workspace's booking form: which optional customer fields a booking must
 * carry, may carry or never stores. No row means every field is optional.
 */
export const bookingForms = sqliteTable("booking_forms", {
  workspaceId: text("workspace_id")
    .primaryKey()
    .references(() => workspaces.id),
  customerEmail: mode("customer_email"),
  customerLastName: mode("customer_last_name"),
  customerMiddleName: mode("customer_middle_name"),
  bookingComment: mode("booking_comment"),
  updatedAt: integer("updated_at").notNull(),
});
