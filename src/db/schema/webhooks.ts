import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { jsonText, NameValueListSchema, StringListSchema } from "./json-text";
import { workspaces } from "./workspaces";

export const webhooks = sqliteTable(
  "webhooks",
  {
    /** The reference's webhook ids are integers. */
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    url: text("url").notNull(),
    method: text("method").notNull().default("post"),
    description: text("description").notNull().default(""),
    successStatuses: text("success_statuses").notNull().default("200,201"),
    status: text("status", { enum: ["enabled", "disabled"] })
      .notNull()
      .default("enabled"),
    sendNotification: integer("send_notification", { mode: "boolean" }).notNull().default(false),
    emails: text("emails").notNull().default(""),
    events: jsonText("events", "webhooks", StringListSchema).notNull(),
    parameters: jsonText("parameters", "webhooks", NameValueListSchema).notNull().default([]),
    headers: jsonText("headers", "webhooks", NameValueListSchema).notNull().default([]),
    tries: integer("tries").notNull().default(3),
    timeout: integer("timeout").notNull().default(10),
    secret: text("secret").notNull(),
    /** During a rotation both secrets sign, so receivers can switch without dropping events. */
    previousSecret: text("previous_secret"),
    previousSecretExpiresAt: integer("previous_secret_expires_at"),
    consecutiveFailures: integer("consecutive_failures").notNull().default(0),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("webhooks_workspace_idx").on(t.workspaceId, t.id)],
);

export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull(),
    webhookId: integer("webhook_id").notNull(),
    eventId: text("event_id").notNull(),
    eventType: text("event_type").notNull(),
    kind: text("kind", { enum: ["http", "email"] })
      .notNull()
      .default("http"),
    attempt: integer("attempt").notNull(),
    statusCode: integer("status_code"),
    success: integer("success", { mode: "boolean" }).notNull(),
    error: text("error"),
    durationMs: integer("duration_ms"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    index("webhook_deliveries_webhook_idx").on(t.webhookId, t.createdAt),
    index("webhook_deliveries_event_idx").on(t.eventId, t.webhookId),
  ],
);

/**
 * Attempts made so far for one event at one webhook, and when the next may
 * start: the consumer takes each attempt here before sending, so the queue's
 * own redeliveries never add one.
 */
export const webhookAttempts = sqliteTable(
  "webhook_attempts",
  {
    eventId: text("event_id").notNull(),
    webhookId: integer("webhook_id").notNull(),
    attempts: integer("attempts").notNull(),
    nextAttemptAt: integer("next_attempt_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.eventId, t.webhookId] }),
    index("webhook_attempts_expires_idx").on(t.expiresAt),
    index("webhook_attempts_webhook_idx").on(t.webhookId),
  ],
);
