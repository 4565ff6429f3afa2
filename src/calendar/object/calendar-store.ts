import { type RawEntryRow, toEntry } from "../ledger";
import type { CalendarEntry, DisplacedEntry } from "../types";

type Row = RawEntryRow & Record<string, SqlStorageValue>;

/** Columns as the D1 mirror names them, so one row mapper serves both sides. */
const SELECT =
  "SELECT id, kind, source_id, start_ms AS starts_at, end_ms AS ends_at, expires_ms AS expires_at, yields, session_key, seats, capacity FROM entries";
const INSERT =
  "INSERT INTO entries (id, kind, source_id, start_ms, end_ms, hold_id, expires_ms, yields, session_key, seats, capacity)";
/** An entry's session columns, as bound after its other columns (null, 1, null outside sessions). */
const sessionOf = (e: CalendarEntry) => [
  e.session?.key ?? null,
  e.session?.seats ?? 1,
  e.session?.capacity ?? null,
];
/** A reservation's entry counts until it expires; every other entry has no expiry. */
const LIVE = "(expires_ms IS NULL OR expires_ms > ?)";
/**
 * What a claim must not overlap: live entries, and expired ones a booking is
 * still converting (its hold locks them): the reservation's time passes
 * straight to the booking, never to a third client in between.
 */
const BUSY = "(expires_ms IS NULL OR expires_ms > ? OR id IN (SELECT entry_id FROM replacing))";

/**
 * A calendar object's own SQLite tables and every row-level step on them.
 * `entries` are busy intervals (confirmed when `hold_id` is null, else claimed
 * by a write in flight); `holds` their leases; `replacing` the confirmed entries
 * a hold will remove, locked against any other hold; `meta` whether the
 * object has loaded D1. A reservation's entries carry `expires_ms`: from then
 * on every read ignores them, and the alarm deletes them. Callers wrap steps
 * in `transactionSync`.
 */
export class CalendarStore {
  constructor(private readonly sql: SqlStorage) {
    sql.exec(`CREATE TABLE IF NOT EXISTS entries (
      id TEXT PRIMARY KEY, kind TEXT NOT NULL, source_id TEXT NOT NULL,
      start_ms INTEGER NOT NULL, end_ms INTEGER NOT NULL, hold_id TEXT)`);
    sql.exec("CREATE INDEX IF NOT EXISTS entries_start ON entries(start_ms)");
    // Overlap checks look at entries ending after a start: past entries stay out of the scan.
    sql.exec("CREATE INDEX IF NOT EXISTS entries_end ON entries(end_ms)");
    sql.exec("CREATE INDEX IF NOT EXISTS entries_hold ON entries(hold_id)");
    sql.exec(
      "CREATE TABLE IF NOT EXISTS holds (hold_id TEXT PRIMARY KEY, expires_at INTEGER NOT NULL)",
    );
    sql.exec(
      "CREATE TABLE IF NOT EXISTS replacing (entry_id TEXT PRIMARY KEY, hold_id TEXT NOT NULL)",
    );
    sql.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
    // Objects created before reservations have no expiry column.
    const columns = sql.exec<{ name: string }>("PRAGMA table_info(entries)").toArray();
    if (!columns.some((c) => c.name === "expires_ms")) {
      sql.exec("ALTER TABLE entries ADD COLUMN expires_ms INTEGER");
    }
    // Objects created before publishable holds gave way to staff.
    if (!columns.some((c) => c.name === "yields")) {
      sql.exec("ALTER TABLE entries ADD COLUMN yields INTEGER NOT NULL DEFAULT 0");
    }
    // Objects created before group sessions: every entry is one booking's own time.
    if (!columns.some((c) => c.name === "session_key")) {
      sql.exec("ALTER TABLE entries ADD COLUMN session_key TEXT");
      sql.exec("ALTER TABLE entries ADD COLUMN seats INTEGER NOT NULL DEFAULT 1");
      sql.exec("ALTER TABLE entries ADD COLUMN capacity INTEGER");
    }
    // Objects created before holds had their own tables kept everything in `busy`.
    const legacy = sql
      .exec("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'busy'")
      .toArray();
    if (legacy.length > 0) {
      sql.exec(`INSERT OR IGNORE INTO entries (id, kind, source_id, start_ms, end_ms, hold_id)
        SELECT id, kind, id, start_ms, end_ms, NULL FROM busy`);
      sql.exec("DROP TABLE busy");
    }
  }

  loaded(): boolean {
    return this.sql.exec("SELECT 1 FROM meta WHERE key = 'loaded_from_d1'").toArray().length > 0;
  }

  /** Every live entry at `now`. */
  all(now: number): CalendarEntry[] {
    return this.sql
      .exec<Row>(`${SELECT} WHERE ${LIVE} ORDER BY start_ms, id`, now)
      .toArray()
      .map(toEntry);
  }

  overlapping(start: number, end: number, now: number): CalendarEntry[] {
    return this.sql
      .exec<Row>(
        `${SELECT} INDEXED BY entries_end WHERE end_ms > ? AND start_ms < ? AND ${BUSY} ORDER BY start_ms`,
        start,
        end,
        now,
      )
      .toArray()
      .map(toEntry);
  }

  byId(id: string): CalendarEntry | undefined {
    const [row] = this.sql.exec<Row>(`${SELECT} WHERE id = ?`, id).toArray();
    return row ? toEntry(row) : undefined;
  }

  /** Which of `ids` another hold is already replacing. */
  contested(ids: string[], holdId: string): string[] {
    return ids.filter(
      (id) =>
        this.sql
          .exec("SELECT 1 FROM replacing WHERE entry_id = ? AND hold_id <> ?", id, holdId)
          .toArray().length > 0,
    );
  }

  /** The other holds replacing any of `ids`. */
  replacers(ids: string[], holdId: string): string[] {
    const holds = new Set<string>();
    for (const id of ids) {
      for (const row of this.sql.exec<{ hold_id: string }>(
        "SELECT hold_id FROM replacing WHERE entry_id = ? AND hold_id <> ?",
        id,
        holdId,
      ))
        holds.add(row.hold_id);
    }
    return [...holds];
  }

  /**
   * Which of `conflicts` a staff claim may take over: a publishable key's
   * holds that no other write is replacing (one being booked or released
   * belongs to that write), each with the hold of its own write while that
   * is still in flight.
   */
  displaceable(conflicts: CalendarEntry[], holdId: string): DisplacedEntry[] {
    return conflicts.flatMap((c) => {
      if (c.kind !== "held" || !c.yields || this.contested([c.id], holdId).length > 0) return [];
      const [row] = this.sql
        .exec<{ hold_id: string | null }>("SELECT hold_id FROM entries WHERE id = ?", c.id)
        .toArray();
      return [{ id: c.id, source: c.source, holdId: row?.hold_id ?? null }];
    });
  }

  /**
   * Drops publishable holds of reservations a staff write ended in D1 (their
   * other calendars' entries). Only such holds: nothing else can be dropped
   * this way, whoever asks.
   */
  drop(ids: string[]) {
    for (const id of ids) {
      this.sql.exec("DELETE FROM entries WHERE id = ? AND kind = 'held' AND yields = 1", id);
    }
  }

  hold(holdId: string, expiresAt: number, entries: CalendarEntry[], replaces: string[]) {
    this.sql.exec(
      "INSERT INTO holds (hold_id, expires_at) VALUES (?, ?) ON CONFLICT(hold_id) DO NOTHING",
      holdId,
      expiresAt,
    );
    for (const e of entries) {
      this.sql.exec(
        `${INSERT} VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        e.id,
        e.kind,
        e.source,
        e.start,
        e.end,
        holdId,
        e.expires ?? null,
        e.yields ? 1 : 0,
        ...sessionOf(e),
      );
    }
    for (const id of replaces) {
      this.sql.exec(
        "INSERT OR IGNORE INTO replacing (entry_id, hold_id) VALUES (?, ?)",
        id,
        holdId,
      );
    }
  }

  confirm(holdId: string) {
    this.sql.exec(
      "DELETE FROM entries WHERE id IN (SELECT entry_id FROM replacing WHERE hold_id = ?)",
      holdId,
    );
    this.sql.exec("UPDATE entries SET hold_id = NULL WHERE hold_id = ?", holdId);
    this.forget(holdId);
  }

  release(holdId: string) {
    this.sql.exec("DELETE FROM entries WHERE hold_id = ?", holdId);
    this.forget(holdId);
  }

  /**
   * Settles a hold (if still open) to what D1 holds: each of its entries kept or dropped.
   * `committed`: the hold's write is known to be in D1 (its own settlement), so whatever it
   * replaced or took over and D1 lacks is gone for good, even an entry whose own write has
   * not confirmed yet (that write committed before, or was fenced by, this one).
   */
  settle(holdId: string, inD1: Map<string, CalendarEntry>, committed = false) {
    if (this.sql.exec("SELECT 1 FROM holds WHERE hold_id = ?", holdId).toArray().length === 0) {
      return;
    }
    for (const id of this.idsOf(holdId)) {
      const row = inD1.get(id);
      if (!row) {
        // Unless this write is known committed, a publishable hold it took over while that
        // hold's own write was in flight belongs to that write until it settles: absent from
        // D1 may only mean "not committed yet".
        this.sql.exec(
          "DELETE FROM entries WHERE id = ? AND (? OR hold_id IS NULL OR hold_id = ?)",
          id,
          committed ? 1 : 0,
          holdId,
        );
        continue;
      }
      this.sql.exec(
        `${INSERT} VALUES (?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?)
         ON CONFLICT(id) DO UPDATE SET start_ms = excluded.start_ms, end_ms = excluded.end_ms,
           expires_ms = excluded.expires_ms, yields = excluded.yields, hold_id = NULL,
           session_key = excluded.session_key, seats = excluded.seats, capacity = excluded.capacity`,
        row.id,
        row.kind,
        row.source,
        row.start,
        row.end,
        row.expires ?? null,
        row.yields ? 1 : 0,
        ...sessionOf(row),
      );
    }
    this.forget(holdId);
  }

  /** Confirmed time becomes exactly `d1`; claimed entries stay for their writes to settle. */
  replaceConfirmed(d1: CalendarEntry[]) {
    this.sql.exec("INSERT OR REPLACE INTO meta (key, value) VALUES ('loaded_from_d1', '1')");
    this.sql.exec("DELETE FROM entries WHERE hold_id IS NULL");
    for (const e of d1) {
      this.sql.exec(
        `${INSERT.replace("INSERT", "INSERT OR IGNORE")} VALUES (?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?)`,
        e.id,
        e.kind,
        e.source,
        e.start,
        e.end,
        e.expires ?? null,
        e.yields ? 1 : 0,
        ...sessionOf(e),
      );
    }
  }

  /** A hold's own entries and the ones it replaces. */
  idsOf(holdId: string): string[] {
    return [
      ...this.sql.exec<{ id: string }>("SELECT id FROM entries WHERE hold_id = ?", holdId),
      ...this.sql.exec<{ id: string }>(
        "SELECT entry_id AS id FROM replacing WHERE hold_id = ?",
        holdId,
      ),
    ].map((r) => r.id);
  }

  expiredHolds(now: number): string[] {
    return this.sql
      .exec<{ hold_id: string }>("SELECT hold_id FROM holds WHERE expires_at <= ?", now)
      .toArray()
      .map((h) => h.hold_id);
  }

  /** Confirmed reservation entries whose time is up: nothing reads them any more. */
  dropExpired(now: number) {
    this.sql.exec(
      "DELETE FROM entries WHERE hold_id IS NULL AND expires_ms IS NOT NULL AND expires_ms <= ?",
      now,
    );
  }

  /** When the alarm is next needed: a hold's lease ends, or a confirmed reservation entry expires. */
  nextExpiry(): number | null {
    return this.sql
      .exec<{ next: number | null }>(
        `SELECT MIN(t) AS next FROM (
           SELECT MIN(expires_at) AS t FROM holds
           UNION ALL
           SELECT MIN(expires_ms) AS t FROM entries WHERE hold_id IS NULL AND expires_ms IS NOT NULL)`,
      )
      .one().next;
  }

  private forget(holdId: string) {
    this.sql.exec("DELETE FROM replacing WHERE hold_id = ?", holdId);
    this.sql.exec("DELETE FROM holds WHERE hold_id = ?", holdId);
  }
}
