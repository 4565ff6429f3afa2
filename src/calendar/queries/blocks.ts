import type { Database } from "../../db/client";
import { blockedSpots, calendarEntries, resourceBlocks } from "../../db/schema";
import type { Statement } from "../../db/statement";

export const insertResourceBlock = (db: Database, row: typeof resourceBlocks.$inferInsert) =>
  db.insert(resourceBlocks).values(row);

/** A staffer's blocked spot and the calendar entry that makes its time busy. */
export const insertBlockedSpot = (
  db: Database,
  spot: typeof blockedSpots.$inferInsert,
  entry: typeof calendarEntries.$inferInsert,
): Statement[] => [db.insert(blockedSpots).values(spot), db.insert(calendarEntries).values(entry)];
