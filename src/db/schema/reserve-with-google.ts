import {
  index,
  integer,
  primaryKey,
  sqliteTable,
  text,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";
import { bookings } from "./bookings";
import { workspaces } from "./workspaces";

/**
 * A workspace's Reserve with Google partner credentials. The directory's (like `api_keys`):
 * Google's Basic auth names only a user, so the booking server finds the workspace, and the
 * shard holding it, by that name.
 */
export const rwgPartners = sqliteTable(
  "rwg_partners",
  {
    workspaceId: text("workspace_id")
      .primaryKey()
      .references(() => workspaces.id),
    /** The Basic auth user name, unique over every workspace. */
    username: text("username").notNull(),
    /** SHA-256 of the password, hex (the password is long and random; never stored). */
    passwordHash: text("password_hash").notNull(),
    enabled: integer("enabled", { mode: "boolean" }).notNull(),
    /**
     * Google's numeric partner id of the salon's own partner account: its real-time updates
     * go out under it. Null: the platform's one partner account (RWG_PARTNER_ID).
     */
    partnerId: text("partner_id"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [uniqueIndex("rwg_partners_username_idx").on(t.username)],
);

/**
 * A booking Google made (CreateBooking), on the workspace's shard, written in the booking's
 * own batch: the request's idempotency token (unique per workspace: a replay finds it), the
 * Google user it belongs to (ListBookings) and the answer given, replayed byte for byte.
 */
export const rwgBookings = sqliteTable(
  "rwg_bookings",
  {
    bookingId: text("booking_id")
      .primaryKey()
      .references(() => bookings.id),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    idempotencyToken: text("idempotency_token").notNull(),
    userId: text("user_id").notNull(),
    /** The CreateBookingResponse as sent (proto JSON text). */
    response: text("response").notNull(),
    /**
     * The booking's version after the booking server's own last change: an event at this
     * version is Google's doing, and is not told back to Google.
     */
    googleVersion: integer("google_version").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("rwg_bookings_token_idx").on(t.workspaceId, t.idempotencyToken),
    index("rwg_bookings_user_idx").on(t.workspaceId, t.userId, t.createdAt),
  ],
);

/**
 * A CreateBooking's claim of its idempotency token, taken in its first read, before any
 * calendar time: while held, another request with the token is answered 409 (Google retries)
 * rather than refused by the calendar its twin is booking. Deleted in the booking's own batch
 * or after a failure; `claimed_until` (epoch ms) lets a crashed attempt's claim lapse.
 */
export const rwgTokenClaims = sqliteTable(
  "rwg_token_claims",
  {
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    idempotencyToken: text("idempotency_token").notNull(),
    claimedUntil: integer("claimed_until").notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.idempotencyToken] })],
);
