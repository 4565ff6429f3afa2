import { DurableObject } from "cloudflare:workers";
import type { CalendarEntry, ClaimRequest, ClaimResult } from "../calendar/types";
import { HOLD_TTL_MS } from "../calendar/types";
import type { Env } from "../env";

interface Row extends Record<string, SqlStorageValue> {
  id: string;
  kind: string;
  start_ms: number;
  end_ms: number;
}

const toEntry = (r: Row): CalendarEntry => ({
  id: r.id,
  kind: r.kind === "blocked" ? "blocked" : "booking",
  start: r.start_ms,
  end: r.end_ms,
});

/**
 * The only writer of one staffer's busy time (DESIGN §2). Every check-and-claim
 * runs synchronously against the object's own SQLite storage, with no await in
 * between: an await on outside I/O would open the input gate and let another
 * request interleave between the check and the claim.
 */
export class StafferCalendar extends DurableObject<Env> {
  private readonly sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec(`CREATE TABLE IF NOT EXISTS busy (
      id TEXT PRIMARY KEY,
      hold_id TEXT NOT NULL,
      kind TEXT NOT NULL,
      start_ms INTEGER NOT NULL,
      end_ms INTEGER NOT NULL,
      state TEXT NOT NULL,
      expires_at INTEGER,
      replaces TEXT
    )`);
    this.sql.exec("CREATE INDEX IF NOT EXISTS busy_start ON busy(start_ms)");
  }

  /** Atomically checks the entries against live busy time and holds them. */
  async claim(request: ClaimRequest): Promise<ClaimResult> {
    const expiresAt = Date.now() + HOLD_TTL_MS;
    const result = this.ctx.storage.transactionSync((): ClaimResult => {
      const ignored = new Set([...(request.replaces ?? []), ...request.entries.map((e) => e.id)]);
      if (request.checkConflicts) {
        const conflicts = request.entries.flatMap((entry) =>
          this.overlapping(entry.start, entry.end).filter((hit) => !ignored.has(hit.id)),
        );
        if (conflicts.length > 0) return { ok: false, conflicts };
      }
      for (const entry of request.entries) {
        this.sql.exec(
          `INSERT INTO busy (id, hold_id, kind, start_ms, end_ms, state, expires_at, replaces)
           VALUES (?, ?, ?, ?, ?, 'held', ?, ?)
           ON CONFLICT(id) DO UPDATE SET hold_id = excluded.hold_id, start_ms = excluded.start_ms,
             end_ms = excluded.end_ms, state = 'held', expires_at = excluded.expires_at,
             replaces = excluded.replaces`,
          entry.id,
          request.holdId,
          entry.kind,
          entry.start,
          entry.end,
          expiresAt,
          JSON.stringify(request.replaces ?? []),
        );
      }
      return { ok: true };
    });
    if (result.ok) await this.scheduleAlarm();
    return result;
  }

  /** The write reached D1: the held entries become permanent and what they replace goes. */
  confirm(holdId: string): void {
    this.ctx.storage.transactionSync(() => {
      const replaced = this.sql
        .exec<{ replaces: string }>(
          "SELECT replaces FROM busy WHERE hold_id = ? AND state = 'held'",
          holdId,
        )
        .toArray()
        .flatMap((r) => JSON.parse(r.replaces ?? "[]") as string[]);
      for (const id of new Set(replaced)) this.sql.exec("DELETE FROM busy WHERE id = ?", id);
      this.sql.exec(
        "UPDATE busy SET state = 'confirmed', expires_at = NULL, replaces = NULL WHERE hold_id = ?",
        holdId,
      );
    });
  }

  /** The write failed: drop what was held for it. */
  release(holdId: string): void {
    this.sql.exec("DELETE FROM busy WHERE hold_id = ? AND state = 'held'", holdId);
  }

  /** Frees confirmed time (a cancelled booking, a removed blocked spot). */
  free(ids: string[]): void {
    for (const id of ids) this.sql.exec("DELETE FROM busy WHERE id = ?", id);
  }

  /** Every live entry overlapping [start, end) (or all), for reconciliation and tests. */
  entries(range?: { start: number; end: number }): CalendarEntry[] {
    if (range) return this.overlapping(range.start, range.end);
    return this.sql
      .exec<Row>("SELECT id, kind, start_ms, end_ms FROM busy ORDER BY start_ms")
      .toArray()
      .map(toEntry);
  }

  /** Holds left unconfirmed (a Worker died mid-write) are settled against D1, the system of record. */
  override async alarm(): Promise<void> {
    const holds = this.sql
      .exec<{ hold_id: string; id: string }>(
        "SELECT hold_id, id FROM busy WHERE state = 'held' AND expires_at <= ?",
        Date.now(),
      )
      .toArray();
    const byHold = new Map<string, string[]>();
    for (const h of holds) byHold.set(h.hold_id, [...(byHold.get(h.hold_id) ?? []), h.id]);
    for (const [holdId, ids] of byHold) {
      const placeholders = ids.map(() => "?").join(",");
      const written = await this.env.DB.prepare(
        `SELECT id FROM calendar_entries WHERE id IN (${placeholders})`,
      )
        .bind(...ids)
        .all();
      if (written.results.length > 0) this.confirm(holdId);
      else this.release(holdId);
    }
    await this.scheduleAlarm();
  }

  private overlapping(start: number, end: number): CalendarEntry[] {
    return this.sql
      .exec<Row>(
        "SELECT id, kind, start_ms, end_ms FROM busy WHERE start_ms < ? AND end_ms > ? ORDER BY start_ms",
        end,
        start,
      )
      .toArray()
      .map(toEntry);
  }

  private async scheduleAlarm(): Promise<void> {
    const next = this.sql
      .exec<{ next: number | null }>(
        "SELECT MIN(expires_at) AS next FROM busy WHERE state = 'held'",
      )
      .one().next;
    if (next !== null) await this.ctx.storage.setAlarm(next);
  }
}
