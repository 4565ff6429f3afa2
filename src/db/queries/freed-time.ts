import { sql } from "drizzle-orm";
import type { Effect } from "../../platform/effects";
import { calendarEntries, waitlistEntries } from "../schema";

/*
 * The waitlist's triggers (migration 0022) record time as freed, in the
 * write's own transaction, when a calendar entry still to come is deleted or
 * a hold is inserted and someone at the location waits for time overlapping
 * it. A statement that deletes or inserts calendar entries returns the same
 * judgement (evaluated by SQLite in the same statement, on its clock) in its
 * RETURNING clause, so the write knows which desks to wake without reading
 * `waitlist_freed` afterwards.
 */

/** D1's clock in ms, as the triggers read it. */
const NOW = sql`cast((julianday('now') - 2440587.5) * 86400000 as integer)`;

/** Someone at the entry's location waits for (or holds an offer of) time overlapping it. */
const someoneWaits = sql`exists (select 1 from ${waitlistEntries}
  where ${waitlistEntries.workspaceId} = ${calendarEntries.workspaceId}
    and ${waitlistEntries.locationId} = ${calendarEntries.locationId}
    and ${waitlistEntries.status} in ('waiting', 'offered')
    and ${waitlistEntries.windowStart} < ${calendarEntries.endsAt}
    and ${waitlistEntries.windowEnd} > ${calendarEntries.startsAt})`;

const placed = {
  freedWorkspace: calendarEntries.workspaceId,
  freedLocation: calendarEntries.locationId,
  // Aliased: a RETURNING that also names staffer_id (the displaced holds' delete) would
  // otherwise carry the column twice, and D1's row objects keep one, shifting the rest.
  freedStaffer: sql<string | null>`${calendarEntries.stafferId}`.as("freed_staffer"),
  freedStart: calendarEntries.startsAt,
  freedEnd: calendarEntries.endsAt,
};

/** RETURNING fields of a delete of calendar entries: `freedAt` set when the trigger recorded it. */
export const freedByDelete = {
  ...placed,
  freedAt: sql<
    number | null
  >`case when ${calendarEntries.endsAt} > ${NOW} and (${calendarEntries.expiresAt} is null or ${calendarEntries.expiresAt} > ${NOW}) and ${someoneWaits} then ${NOW} end`,
};

/** RETURNING fields of an insert of calendar entries: a hold's time is freed at its expiry. */
export const freedByHold = {
  ...placed,
  freedAt: sql<
    number | null
  >`case when ${calendarEntries.kind} = 'held' and ${calendarEntries.expiresAt} is not null and ${someoneWaits} then ${calendarEntries.expiresAt} end`,
};

interface FreedRow {
  freedWorkspace: string;
  freedLocation: string;
  freedStaffer: string | null;
  freedStart: number;
  freedEnd: number;
  freedAt: number | null;
}

/** The freed time a statement with `freedByDelete`/`freedByHold` fields returned. */
export const freedEffects = (result: unknown): Effect[] =>
  (Array.isArray(result) ? (result as FreedRow[]) : []).flatMap((r) =>
    r.freedAt === null
      ? []
      : [
          {
            kind: "freed" as const,
            workspaceId: r.freedWorkspace,
            locationId: r.freedLocation,
            stafferId: r.freedStaffer,
            startsAt: r.freedStart,
            endsAt: r.freedEnd,
            dueAt: r.freedAt,
          },
        ],
  );
