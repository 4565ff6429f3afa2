import { sql } from "drizzle-orm";
import { check, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Never holds a row: inserting into it always fails its CHECK, which rolls back
 * the whole D1 batch. `guard()` inserts only when a condition is false, so a
 * batch can refuse to commit on state it did not see when it was built.
 */
export const batchGuards = sqliteTable("batch_guards", { reason: text("reason").notNull() }, () => [
  check("batch_guard_failed", sql`0`),
]);
