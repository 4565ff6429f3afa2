/** Rows deleted per statement: one statement stays short however much has piled up. */
const CHUNK = 1_000;
/** Statements per run: up to 20 000 rows of each table a minute, far above what any key may send. */
const MAX_CHUNKS = 20;
const DAY_MS = 24 * 3_600_000;

/**
 * Deletes what nothing reads any more, from the cron (every minute). An
 * Idempotency-Key's row is never replayed once it expired (a new request with
 * the key takes it over), and a reservation a day past its expiry is only
 * history (its held entries and fences are gone by then too, see
 * `pruneFences`). Both are written by publishable keys, which anyone may send
 * a few times a second: without this they grew without end. Run on each
 * shard in turn (`pruneEveryShard`), the directory first.
 */
export async function pruneExpired(db: D1Database, now = Date.now()): Promise<void> {
  await pruneChunks(db, "idempotency_keys", now);
  await pruneChunks(db, "reservations", now - DAY_MS);
  // Offers to widget entries count a day against their visitor and workspace, then never again.
  await pruneChunks(db, "waitlist_offers", now);
  // A webhook's attempt count for an event, once no queue message can still ask for it.
  await pruneChunks(db, "webhook_attempts", now);
}

const NOT_OPEN = "SELECT id FROM workspaces WHERE placement <> 'open'";

/** The row's workspace is open on this shard (or the shard has no row of it: nothing to move). */
const ownedHere = (table: Table): string =>
  table === "webhook_attempts"
    ? `webhook_id NOT IN (SELECT w.id FROM webhooks w WHERE w.workspace_id IN (${NOT_OPEN}))`
    : `workspace_id NOT IN (${NOT_OPEN})`;

type Table = "idempotency_keys" | "reservations" | "waitlist_offers" | "webhook_attempts";

async function pruneChunks(db: D1Database, table: Table, before: number): Promise<void> {
  // Through the expires_at index, a chunk at a time (rowid: every such table has one). Rows of
  // a workspace not open on this shard are left alone: a move is copying them in or out, or
  // cleaning up after it, and deletes them itself.
  const statement = db
    .prepare(
      `DELETE FROM ${table} WHERE rowid IN (SELECT rowid FROM ${table} WHERE expires_at < ? AND ${ownedHere(table)} LIMIT ${CHUNK})`,
    )
    .bind(before);
  for (let i = 0; i < MAX_CHUNKS; i++) {
    const result = await statement.run();
    if (result.meta.changes < CHUNK) return;
  }
}
