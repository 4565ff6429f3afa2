import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { jsonText, StringListSchema } from "./json-text";

export const workspaces = sqliteTable("workspaces", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  /** ISO 3166 alpha-2: the default region for parsing national phone numbers. */
  country: text("country").notNull(),
  /** ISO 4217 code for every amount in the workspace. */
  currency: text("currency").notNull(),
  locale: text("locale").notNull(),
  timezone: text("timezone").notNull(),
  createdAt: integer("created_at").notNull(),
});

export const apiKeys = sqliteTable(
  "api_keys",
  {
    /** Public half of the key (`sk_<id>_<secret>` or `pk_<id>_<secret>`), found without the secret. */
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    /** SHA-256 of the whole key, hex. The key itself is never stored. */
    keyHash: text("key_hash").notNull(),
    /** `secret` (servers: the whole public API) or `publishable` (web pages: a narrow scope). */
    kind: text("kind", { enum: ["secret", "publishable"] })
      .notNull()
      .default("secret"),
    /** Origins a browser may call from with a publishable key (JSON array; empty for secret keys). */
    allowedOrigins: jsonText("allowed_origins", "api_keys", StringListSchema).notNull().default([]),
    createdAt: integer("created_at").notNull(),
    revokedAt: integer("revoked_at"),
  },
  (t) => [index("api_keys_workspace_idx").on(t.workspaceId)],
);
