import { integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { staffers } from "./staff";
import { workspaces } from "./workspaces";

/**
 * A staffer's calendar feed: the secret URL `…/feeds/<token>.ics`. Only the
 * token's SHA-256 is kept; the feed is found by it (a hash of a 256-bit random
 * token needs no salt and no constant-time compare: knowing a hash does not
 * give the token). One row per staffer: a new token replaces the old one.
 */
export const calendarFeeds = sqliteTable(
  "calendar_feeds",
  {
    stafferId: text("staffer_id")
      .primaryKey()
      .references(() => staffers.id),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    tokenHash: text("token_hash").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("calendar_feeds_token_idx").on(t.tokenHash)],
);
