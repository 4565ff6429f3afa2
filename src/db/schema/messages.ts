import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { workspaces } from "./workspaces";

export const MESSAGE_CHANNELS = ["email", "sms"] as const;
export const MESSAGE_STATUSES = ["scheduled", "sent", "failed", "skipped", "canceled"] as const;

/**
 * A message to a customer on one channel. Written `scheduled` in the batch of
 * the booking change that causes it (`scheduledFor`: now, or a reminder's
 * time); delivery leases a due row so it is sent once.
 */
export const messages = sqliteTable(
  "messages",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    bookingId: text("booking_id"),
    /** A waitlist offer's message: the entry it offers time to (no booking yet). */
    waitlistEntryId: text("waitlist_entry_id"),
    customerId: text("customer_id"),
    kind: text("kind").notNull(),
    channel: text("channel", { enum: MESSAGE_CHANNELS }).notNull(),
    to: text("to").notNull(),
    locale: text("locale").notNull(),
    subject: text("subject"),
    body: text("body").notNull(),
    status: text("status", { enum: MESSAGE_STATUSES }).notNull(),
    /** Who delivered it (`log` when no provider is configured); null until it was attempted. */
    provider: text("provider"),
    /** The provider's id for the sent message (Resend e-mail id, Twilio SID); null for `log`. */
    providerMessageId: text("provider_message_id"),
    scheduledFor: integer("scheduled_for").notNull(),
    sentAt: integer("sent_at"),
    attempts: integer("attempts").notNull().default(0),
    error: text("error"),
    /** A delivery's lease: until this instant no other delivery may take the message. */
    leaseUntil: integer("lease_until"),
    createdAt: integer("created_at").notNull(),
    /**
     * The visitor (client address, hashed) whose write caused it, through a publishable key
     * or a manage link; null for staff's. A visitor's messages of a day are bounded.
     */
    visitor: text("visitor"),
    /** Why it is `skipped` (opted_out, sms_country, recipient_quota, …); null otherwise. */
    skipReason: text("skip_reason"),
  },
  (t) => [
    index("messages_workspace_created_idx").on(t.workspaceId, t.createdAt, t.id),
    index("messages_booking_idx").on(t.bookingId),
    index("messages_due_idx").on(t.status, t.scheduledFor),
    index("messages_workspace_due_idx").on(t.workspaceId, t.status, t.scheduledFor),
    // The daily bound counts a visitor's messages of the last day in the write that adds one.
    index("messages_visitor_idx").on(t.workspaceId, t.visitor, t.createdAt),
  ],
);

/** A workspace's notification settings (channels, reminders, templates), one JSON document. */
export const notificationSettings = sqliteTable("notification_settings", {
  workspaceId: text("workspace_id")
    .primaryKey()
    .references(() => workspaces.id),
  settings: text("settings", { mode: "json" }).$type<unknown>().notNull(),
  updatedAt: integer("updated_at").notNull(),
});

/**
 * Messages that requests with a publishable key or without a key caused, per
 * workspace and UTC day (`day`: days since the epoch): one row per recipient
 * (`sms:+49…`, `email:…`) and the workspace's budget (`recipient` ''), whose
 * `reached` records that its `quota-reached` event of the day was written.
 */
export const publicMessageCounts = sqliteTable(
  "public_message_counts",
  {
    workspaceId: text("workspace_id").notNull(),
    day: integer("day").notNull(),
    recipient: text("recipient").notNull(),
    used: integer("used").notNull().default(0),
    reached: integer("reached", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.day, t.recipient] })],
);
