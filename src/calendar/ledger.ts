import { failpoint } from "../platform/failpoints";
import { ownerColumns } from "./ids";
import type { CalendarEntry } from "./types";

/**
 * The D1 side of a calendar object: what the system of record says about a
 * calendar's busy time (a staffer's or a resource unit's). Raw D1 (no drizzle): the object has no request context.
 */
/**
 * A calendar entry as raw SQL returns it (snake_case), from D1 or from the
 * object's own SQLite (which aliases its columns to these): not the drizzle row
 * (`EntryRow` in src/db/schema/calendar.ts), and `toEntry` makes it the
 * one in-memory shape, `CalendarEntry`.
 */
export interface RawEntryRow {
  id: string;
  kind: string;
  source_id: string;
  starts_at: number;
  ends_at: number;
  expires_at: number | null;
  /** 0/1 in SQLite. */
  yields: number | boolean | null;
  /** A group service's session entry: its key, seats and capacity (see `SessionSeats`). */
  session_key: string | null;
  seats: number | null;
  capacity: number | null;
}

const KINDS = new Set<string>(["booking", "blocked", "held", "external"]);

export const toEntry = (r: RawEntryRow): CalendarEntry => ({
  id: r.id,
  kind: KINDS.has(r.kind) ? (r.kind as CalendarEntry["kind"]) : "booking",
  source: r.source_id,
  start: r.starts_at,
  end: r.ends_at,
  // Only reservations expire; other entries carry no expiry at all.
  ...(r.expires_at != null ? { expires: r.expires_at } : {}),
  ...(r.yields ? { yields: true } : {}),
  ...(r.session_key
    ? { session: { key: r.session_key, seats: r.seats ?? 1, capacity: r.capacity ?? 1 } }
    : {}),
});

const COLUMNS =
  "id, kind, source_id, starts_at, ends_at, expires_at, yields, session_key, seats, capacity";

/**
 * Fences the holds and reads which of `ids` D1 holds, in one transaction: a
 * write of a fenced hold fails its guard, so what this returns stays true.
 * A fence names its workspace, so a move carries it along with the hold's rows.
 */
export async function fenceAndRead(
  db: D1Database,
  workspaceId: string | null,
  holdIds: string[],
  ids: string[],
): Promise<Map<string, CalendarEntry>> {
  failpoint("calendar.settle.d1");
  const [, found] = await db.batch<RawEntryRow>([
    db
      .prepare(
        "INSERT OR IGNORE INTO hold_fences (hold_id, created_at, workspace_id) SELECT value, ?, ? FROM json_each(?)",
      )
      .bind(Date.now(), workspaceId, JSON.stringify(holdIds)),
    db
      .prepare(
        `SELECT ${COLUMNS} FROM calendar_entries WHERE id IN (SELECT value FROM json_each(?))`,
      )
      .bind(JSON.stringify(ids)),
  ]);
  return new Map((found?.results ?? []).map((r) => [r.id, toEntry(r)]));
}

/** Every busy interval D1 records for one calendar; reservations only while unexpired at `now`. */
export async function calendarEntriesOf(
  db: D1Database,
  workspaceId: string,
  calendarId: string,
  now = Date.now(),
): Promise<CalendarEntry[]> {
  const owner = ownerColumns(calendarId);
  const [clause, binds] = owner.stafferId
    ? ["staffer_id = ?", [owner.stafferId]]
    : ["resource_id = ? AND unit = ?", [owner.resourceId, owner.unit]];
  const { results } = await db
    .prepare(
      `SELECT ${COLUMNS} FROM calendar_entries WHERE workspace_id = ? AND ${clause} AND (expires_at IS NULL OR expires_at > ?) ORDER BY starts_at, id`,
    )
    .bind(workspaceId, ...binds, now)
    .all<RawEntryRow>();
  return results.map(toEntry);
}

/**
 * A fence matters only while its hold's write could still be in flight
 * (seconds); a day later it only takes space. Run by the cron sweep, on each
 * shard: rows of a workspace that is not open there (a move is copying it in
 * or out, or cleaning up after it) are the move's; fences from before shards
 * name no workspace and go by age alone.
 */
export async function pruneFences(db: D1Database, now = Date.now()): Promise<void> {
  const dayAgo = now - 24 * 3_600_000;
  const notHere = "SELECT id FROM workspaces WHERE placement <> 'open'";
  await db.batch([
    db
      .prepare(
        `DELETE FROM hold_fences WHERE created_at < ? AND (workspace_id IS NULL OR workspace_id NOT IN (${notHere}))`,
      )
      .bind(dayAgo),
    // Reservations' busy time counts for nothing once expired (every reader compares expires_at
    // with now); the rows are only kept a day so a late settlement still finds what it judges by.
    db
      .prepare(
        `DELETE FROM calendar_entries WHERE expires_at IS NOT NULL AND expires_at < ? AND workspace_id NOT IN (${notHere})`,
      )
      .bind(dayAgo),
  ]);
}
