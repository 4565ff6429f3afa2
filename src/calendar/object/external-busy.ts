/**
 * External busy time in a calendar object's own SQLite: entries of kind
 * `external` (confirmed, no hold), one set per external calendar (`source_id`),
 * and `external_sources`, the last sync applied per source. A sync replaces
 * its source's set as a whole inside the caller's `transactionSync`, so a
 * claim sees either the old set or the new one, never a mix.
 */
export class ExternalBusy {
  constructor(private readonly sql: SqlStorage) {
    sql.exec(
      "CREATE TABLE IF NOT EXISTS external_sources (source_id TEXT PRIMARY KEY, seq INTEGER NOT NULL)",
    );
  }

  /**
   * The source's busy time becomes `flat` (`[start0, end0, start1, end1, …]`,
   * sorted, disjoint), unless a sync at least as new (`seq`) was applied, or
   * the source was removed. Returns the bookings overlapping the new time, or
   * null when this sync is stale.
   */
  replace(source: string, seq: number, flat: readonly number[], now: number): string[] | null {
    const [last] = this.sql
      .exec<{ seq: number }>("SELECT seq FROM external_sources WHERE source_id = ?", source)
      .toArray();
    if (last && last.seq >= seq) return null;
    this.sql.exec(
      "INSERT INTO external_sources (source_id, seq) VALUES (?, ?) ON CONFLICT(source_id) DO UPDATE SET seq = excluded.seq",
      source,
      seq,
    );
    this.sql.exec("DELETE FROM entries WHERE kind = 'external' AND source_id = ?", source);
    const pairs: [number, number][] = [];
    for (let i = 0; i + 1 < flat.length; i += 2) pairs.push([flat[i] ?? 0, flat[i + 1] ?? 0]);
    // One statement for up to 5,000 rows; ids as D1 writes them (`externalEntryId`).
    this.sql.exec(
      `INSERT INTO entries (id, kind, source_id, start_ms, end_ms, hold_id, expires_ms, yields)
       SELECT ? || ':' || json_extract(value, '$[0]'), 'external', ?, json_extract(value, '$[0]'), json_extract(value, '$[1]'), NULL, NULL, 0
       FROM json_each(?)`,
      source,
      source,
      JSON.stringify(pairs),
    );
    return this.bookingsOver(pairs, now);
  }

  /** The source is gone: its time with it, and no late sync of it is applied again. */
  remove(source: string) {
    this.sql.exec("DELETE FROM entries WHERE kind = 'external' AND source_id = ?", source);
    this.sql.exec(
      "INSERT INTO external_sources (source_id, seq) VALUES (?, ?) ON CONFLICT(source_id) DO UPDATE SET seq = excluded.seq",
      source,
      Number.MAX_SAFE_INTEGER,
    );
  }

  /**
   * Bookings (confirmed or in flight) overlapping any of `pairs`: each live
   * booking entry is looked up in the sorted pairs (bookings are fewer than
   * busy intervals, and this reads each once).
   */
  private bookingsOver(pairs: [number, number][], now: number): string[] {
    if (pairs.length === 0) return [];
    const bookings = this.sql
      .exec<{ source_id: string; start_ms: number; end_ms: number }>(
        "SELECT source_id, start_ms, end_ms FROM entries WHERE kind = 'booking' AND end_ms > ?",
        Math.min(now, pairs[0]?.[0] ?? now),
      )
      .toArray();
    const found = new Set<string>();
    for (const b of bookings) {
      // The first pair ending after the booking starts; it overlaps when it starts before the booking ends.
      let lo = 0;
      let hi = pairs.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if ((pairs[mid]?.[1] ?? 0) > b.start_ms) hi = mid;
        else lo = mid + 1;
      }
      const pair = pairs[lo];
      if (pair && pair[0] < b.end_ms) found.add(b.source_id);
    }
    return [...found].sort();
  }
}
