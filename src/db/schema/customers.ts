import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { workspaces } from "./workspaces";

export const customers = sqliteTable(
  "customers",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    firstName: text("first_name").notNull(),
    lastName: text("last_name"),
    middleName: text("middle_name"),
    /** E.164, normalised with the workspace country: the identity a booking finds a customer by. */
    phone: text("phone").notNull(),
    email: text("email"),
    /** Lower-cased copy so the exact, case-insensitive e-mail filter can use an index. */
    emailLower: text("email_lower"),
    /** The customer's language (BCP 47), from the browser of their first booking. */
    locale: text("locale"),
    /** Opt-outs per channel: a message on a channel the customer left is `skipped`. */
    notifyEmail: integer("notify_email", { mode: "boolean" }).notNull().default(true),
    notifySms: integer("notify_sms", { mode: "boolean" }).notNull().default(true),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("customers_workspace_phone_uq").on(t.workspaceId, t.phone),
    index("customers_workspace_email_idx").on(t.workspaceId, t.emailLower),
    index("customers_workspace_created_idx").on(t.workspaceId, t.createdAt, t.id),
  ],
);
