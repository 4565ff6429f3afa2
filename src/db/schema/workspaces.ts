import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { jsonText, StringListSchema } from "./json-text";
import { PLACEMENTS } from "./shards";

export const workspaces = sqliteTable("workspaces", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  /** ISO 3166 alpha-2: the default region for parsing national phone numbers. */
  country: text("country").notNull(),
  /** ISO 4217 code for every amount in the workspace. */
  currency: text("currency").notNull(),
  locale: text("locale").notNull(),
  timezone: text("timezone").notNull(),
  /** The name customers see on the booking pages; null: no brand (the location's name shows). */
  brandName: text("brand_name"),
  /** An https: URL of the brand's logo (null: none; always null while there is no brand). */
  brandLogoUrl: text("brand_logo_url"),
  /** `#rrggbb`, lower-case, readable on white (WCAG 2 contrast of at least 4.5:1); null: none. */
  brandAccentColor: text("brand_accent_color"),
  createdAt: integer("created_at").notNull(),
  /** Directory: the shard holding the workspace's data (`DB` for workspaces from before shards). */
  shard: text("shard").notNull().default("DB"),
  /** This database's copy: where the workspace stands here (`PLACEMENTS`); the D1 layer checks it. */
  placement: text("placement", { enum: PLACEMENTS }).notNull().default("open"),
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
