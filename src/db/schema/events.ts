import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Transactional outbox: an event row is written in the same batch as the change
 * it reports, so a change can never happen without its event. `dispatchedAt`
 * is set once the event has been handed to the Queue; the cron sweep re-sends
 * the rest.
 */
export const events = sqliteTable(
  "events",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull(),
    type: text("type").notNull(),
    payload: text("payload", { mode: "json" }).$type<unknown>().notNull(),
    createdAt: integer("created_at").notNull(),
    /** A dispatcher's lease: only the request that leased an event sends it; an expired lease is swept. */
    claimedAt: integer("claimed_at"),
    dispatchedAt: integer("dispatched_at"),
  },
  (t) => [index("events_pending_idx").on(t.dispatchedAt, t.createdAt)],
);

/**
 * Responses remembered per Idempotency-Key for 24 h, so a retried POST/PUT does not act twice.
 * A key belongs to the API key that sent it: one API key never replays or blocks another's answer.
 */
export const idempotencyKeys = sqliteTable(
  "idempotency_keys",
  {
    workspaceId: text("workspace_id").notNull(),
    apiKeyId: text("api_key_id").notNull(),
    key: text("key").notNull(),
    method: text("method").notNull(),
    path: text("path").notNull(),
    bodyHash: text("body_hash").notNull(),
    status: integer("status").notNull(),
    response: text("response").notNull(),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.apiKeyId, t.key] }),
    index("idempotency_expires_idx").on(t.expiresAt),
  ],
);
