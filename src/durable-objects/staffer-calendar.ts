import { DurableObject } from "cloudflare:workers";
import { compareCalendars } from "../calendar/audit";
import { fenceAndRead, stafferEntries } from "../calendar/ledger";
import type {
  CalendarAudit,
  CalendarEntry,
  ClaimRequest,
  ClaimResult,
  Settlement,
} from "../calendar/types";
import { HOLD_TTL_MS } from "../calendar/types";
import type { Env } from "../env";

interface Row extends Record<string, SqlStorageValue> {
  id: string;
  kind: string;
  source_id: string;
  start_ms: number;
  end_ms: number;
}

const toEntry = (r: Row): CalendarEntry => ({
  id: r.id,
  kind: r.kind === "blocked" ? "blocked" : "booking",
  source: r.source_id,
  start: r.start_ms,
  end: r.end_ms,
});

const COLUMNS = "id, kind, source_id, start_ms, end_ms";
/** How soon a settlement that could not reach D1 is tried again. */
const SETTLE_RETRY_MS = 10_000;

/**
 * The only writer of one staffer's busy time. Every check-and-claim runs
 * synchronously against the object's own SQLite storage, with no await in
 * between: an await on outside I/O would open the input gate and let another
 * request interleave between the check and the claim.
 *
 * A write holds its new entries (`held`) and locks the entries it replaces
 * (`replacing`) until it confirms; a hold nobody confirms is settled against
 * D1 by the alarm, never simply dropped.
 */
export class StafferCalendar extends DurableObject<Env> {
  private readonly sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec(`CREATE TABLE IF NOT EXISTS entries (
      id TEXT PRIMARY KEY, kind TEXT NOT NULL, source_id TEXT NOT NULL,
      start_ms INTEGER NOT NULL, end_ms INTEGER NOT NULL, hold_id TEXT)`);
    this.sql.exec("CREATE INDEX IF NOT EXISTS entries_start ON entries(start_ms)");
    // Overlap checks look at entries ending after a start: past entries stay out of the scan.
    this.sql.exec("CREATE INDEX IF NOT EXISTS entries_end ON entries(end_ms)");
    this.sql.exec("CREATE INDEX IF NOT EXISTS entries_hold ON entries(hold_id)");
    this.sql.exec(
      "CREATE TABLE IF NOT EXISTS holds (hold_id TEXT PRIMARY KEY, expires_at INTEGER NOT NULL)",
    );
    this.sql.exec(
      "CREATE TABLE IF NOT EXISTS replacing (entry_id TEXT PRIMARY KEY, hold_id TEXT NOT NULL)",
    );
    this.sql.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
    // Objects created before holds had their own tables kept everything in `busy`.
    const legacy = this.sql
      .exec("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'busy'")
      .toArray();
    if (legacy.length > 0) {
      this.sql.exec(`INSERT OR IGNORE INTO entries (${COLUMNS}, hold_id)
        SELECT id, kind, id, start_ms, end_ms, NULL FROM busy`);
      this.sql.exec("DROP TABLE busy");
    }
  }

  /** Atomically checks the entries against live busy time and holds them. */
  async claim(request: ClaimRequest): Promise<ClaimResult> {
    // An object that never loaded D1 (new, reset, or from before this flag) must not trust its
    // empty storage: it would grant time D1 already books.
    if (!this.loaded()) await this.rebuild(request.owner.workspaceId, request.owner.stafferId);
    const replaces = request.replaces ?? [];
    const result = this.ctx.storage.transactionSync((): ClaimResult => {
      const contested = replaces.filter(
        (id) =>
          this.sql
            .exec("SELECT 1 FROM replacing WHERE entry_id = ? AND hold_id <> ?", id, request.holdId)
            .toArray().length > 0,
      );
      if (contested.length > 0) return { ok: false, reason: "replacing", ids: contested };
      const ignored = new Set(replaces);
      const conflicts = request.entries.flatMap((entry) => {
        const taken = this.byId(entry.id);
        if (taken) return [taken];
        if (!request.checkConflicts) return [];
        return this.overlapping(entry.start, entry.end).filter((hit) => !ignored.has(hit.id));
      });
      if (conflicts.length > 0) return { ok: false, reason: "overlap", conflicts };

      this.sql.exec(
        "INSERT INTO holds (hold_id, expires_at) VALUES (?, ?) ON CONFLICT(hold_id) DO NOTHING",
        request.holdId,
        Date.now() + HOLD_TTL_MS,
      );
      for (const e of request.entries) {
        this.sql.exec(
          `INSERT INTO entries (${COLUMNS}, hold_id) VALUES (?, ?, ?, ?, ?, ?)`,
          e.id,
          e.kind,
          e.source,
          e.start,
          e.end,
          request.holdId,
        );
      }
      for (const id of replaces) {
        this.sql.exec(
          "INSERT OR IGNORE INTO replacing (entry_id, hold_id) VALUES (?, ?)",
          id,
          request.holdId,
        );
      }
      return { ok: true };
    });
    if (result.ok) await this.scheduleAlarm();
    return result;
  }

  /** The write reached D1: its entries become permanent and what they replace goes. */
  confirm(holdId: string): void {
    this.ctx.storage.transactionSync(() => {
      this.sql.exec(
        "DELETE FROM entries WHERE id IN (SELECT entry_id FROM replacing WHERE hold_id = ?)",
        holdId,
      );
      this.sql.exec("UPDATE entries SET hold_id = NULL WHERE hold_id = ?", holdId);
      this.forget(holdId);
    });
  }

  /** The write certainly did not reach D1 (its batch rolled back): drop what it held. */
  release(holdId: string): void {
    this.ctx.storage.transactionSync(() => {
      this.sql.exec("DELETE FROM entries WHERE hold_id = ?", holdId);
      this.forget(holdId);
    });
  }

  /**
   * The write may or may not have reached D1 (it failed ambiguously): fence
   * the hold in D1, then keep exactly what D1 holds. `ids` are the write's
   * own entries and the ones it replaced, so the answer holds even when the
   * alarm settled the hold first.
   */
  async settle(
    holdId: string,
    ids: { entries: string[]; replaces: string[] },
  ): Promise<Settlement> {
    const inD1 = await fenceAndRead(this.env.DB, [holdId], [...ids.entries, ...ids.replaces]);
    this.ctx.storage.transactionSync(() => this.apply(holdId, inD1));
    // Replaced entries stay locked by this hold until it settles, so their absence is proof;
    // new entries could already have been replaced by a later write.
    return {
      committed:
        ids.replaces.length > 0
          ? ids.replaces.every((id) => !inD1.has(id))
          : ids.entries.every((id) => inD1.has(id)),
    };
  }

  /** Every live entry (confirmed or held) overlapping [start, end), or all. */
  entries(range?: { start: number; end: number }): CalendarEntry[] {
    if (range) return this.overlapping(range.start, range.end);
    return this.sql
      .exec<Row>(`SELECT ${COLUMNS} FROM entries ORDER BY start_ms, id`)
      .toArray()
      .map(toEntry);
  }

  /** Compares this calendar with D1, with no write landing in between. */
  async audit(workspaceId: string, stafferId: string): Promise<CalendarAudit> {
    return this.ctx.blockConcurrencyWhile(async () =>
      compareCalendars(this.entries(), await stafferEntries(this.env.DB, workspaceId, stafferId)),
    );
  }

  /**
   * Makes the confirmed time exactly D1's (after a restore, or a reset of the
   * namespace). Live holds stay: their writes settle them as usual. Nothing
   * can confirm while D1 is read, so no confirmed write is missed.
   */
  async rebuild(workspaceId: string, stafferId: string): Promise<CalendarAudit> {
    return this.ctx.blockConcurrencyWhile(async () => {
      const d1 = await stafferEntries(this.env.DB, workspaceId, stafferId);
      this.ctx.storage.transactionSync(() => {
        this.sql.exec("INSERT OR REPLACE INTO meta (key, value) VALUES ('loaded_from_d1', '1')");
        this.sql.exec("DELETE FROM entries WHERE hold_id IS NULL");
        for (const e of d1) {
          this.sql.exec(
            `INSERT OR IGNORE INTO entries (${COLUMNS}, hold_id) VALUES (?, ?, ?, ?, ?, NULL)`,
            e.id,
            e.kind,
            e.source,
            e.start,
            e.end,
          );
        }
      });
      return compareCalendars(this.entries(), d1);
    });
  }

  /** Holds left unconfirmed (a Worker died mid-write, a confirm was lost) are settled against D1. */
  override async alarm(): Promise<void> {
    const expired = this.sql
      .exec<{ hold_id: string }>("SELECT hold_id FROM holds WHERE expires_at <= ?", Date.now())
      .toArray()
      .map((h) => h.hold_id);
    if (expired.length > 0) {
      const ids = expired.flatMap((holdId) => this.idsOf(holdId));
      try {
        const inD1 = await fenceAndRead(this.env.DB, expired, ids);
        this.ctx.storage.transactionSync(() => {
          for (const holdId of expired) this.apply(holdId, inD1);
        });
      } catch (error) {
        // D1 is unreachable, which is exactly when unsettled holds pile up. The runtime
        // stops retrying a failing alarm after a few tries, so re-arm it ourselves.
        console.error(
          JSON.stringify({
            level: "error",
            message: "calendar settle failed",
            error: String(error),
          }),
        );
        await this.ctx.storage.setAlarm(Date.now() + SETTLE_RETRY_MS);
        return;
      }
    }
    await this.scheduleAlarm();
  }

  /** Settles a hold (if still open) to what D1 holds: entries kept or dropped one by one. */
  private apply(holdId: string, inD1: Map<string, CalendarEntry>) {
    const open = this.sql.exec("SELECT 1 FROM holds WHERE hold_id = ?", holdId).toArray();
    if (open.length === 0) return;
    for (const id of this.idsOf(holdId)) {
      const row = inD1.get(id);
      if (!row) {
        this.sql.exec("DELETE FROM entries WHERE id = ?", id);
        continue;
      }
      this.sql.exec(
        `INSERT INTO entries (${COLUMNS}, hold_id) VALUES (?, ?, ?, ?, ?, NULL)
         ON CONFLICT(id) DO UPDATE SET start_ms = excluded.start_ms, end_ms = excluded.end_ms, hold_id = NULL`,
        row.id,
        row.kind,
        row.source,
        row.start,
        row.end,
      );
    }
    this.forget(holdId);
  }

  private loaded(): boolean {
    return this.sql.exec("SELECT 1 FROM meta WHERE key = 'loaded_from_d1'").toArray().length > 0;
  }

  private idsOf(holdId: string): string[] {
    return [
      ...this.sql.exec<{ id: string }>("SELECT id FROM entries WHERE hold_id = ?", holdId),
      ...this.sql.exec<{ id: string }>(
        "SELECT entry_id AS id FROM replacing WHERE hold_id = ?",
        holdId,
      ),
    ].map((r) => r.id);
  }

  private forget(holdId: string) {
    this.sql.exec("DELETE FROM replacing WHERE hold_id = ?", holdId);
    this.sql.exec("DELETE FROM holds WHERE hold_id = ?", holdId);
  }

  private byId(id: string): CalendarEntry | undefined {
    const [row] = this.sql.exec<Row>(`SELECT ${COLUMNS} FROM entries WHERE id = ?`, id).toArray();
    return row ? toEntry(row) : undefined;
  }

  private overlapping(start: number, end: number): CalendarEntry[] {
    return this.sql
      .exec<Row>(
        `SELECT ${COLUMNS} FROM entries INDEXED BY entries_end WHERE end_ms > ? AND start_ms < ? ORDER BY start_ms`,
        start,
        end,
      )
      .toArray()
      .map(toEntry);
  }

  private async scheduleAlarm(): Promise<void> {
    const next = this.sql
      .exec<{ next: number | null }>("SELECT MIN(expires_at) AS next FROM holds")
      .one().next;
    if (next !== null) await this.ctx.storage.setAlarm(next);
  }
}
