import { env } from "cloudflare:workers";
import { MOVED_TABLES, type TenantTable } from "../../src/shards/rules/tables";

export type ShardName = "DB" | `SHARD_${0 | 1 | 2 | 3}`;
export const SHARDS: ShardName[] = ["SHARD_0", "SHARD_1", "SHARD_2", "SHARD_3"];

const where = (table: TenantTable) =>
  table.scope.kind === "id"
    ? `"id" = ?1`
    : table.scope.kind === "workspace"
      ? `"workspace_id" = ?1`
      : `"${table.scope.column}" IN (SELECT "id" FROM "${table.scope.parent}" WHERE "workspace_id" = ?1)`;

/**
 * Every row of the workspace in every moved table of one database, read
 * straight from its binding, in a comparable form: rows sorted, a renumbered
 * table's ids and the workspace row's own placement columns left out (a move
 * changes those by design).
 */
export async function workspaceRows(
  shard: ShardName,
  workspaceId: string,
): Promise<Record<string, Record<string, unknown>[]>> {
  const db = env[shard];
  const results = await db.batch<Record<string, unknown>>(
    MOVED_TABLES.map((t) =>
      db.prepare(`SELECT * FROM "${t.name}" WHERE ${where(t)}`).bind(workspaceId),
    ),
  );
  const rows: Record<string, Record<string, unknown>[]> = {};
  MOVED_TABLES.forEach((table, i) => {
    const found = (results[i]?.results ?? []).map((row) => {
      const copy = { ...row };
      if (table.renumbered) delete copy.id;
      if (table.scope.kind === "id") {
        delete copy.placement;
        delete copy.shard;
      }
      return copy;
    });
    if (found.length > 0) {
      rows[table.name] = found
        .map((row) => JSON.stringify(row))
        .sort()
        .map((json) => JSON.parse(json) as Record<string, unknown>);
    }
  });
  return rows;
}

/** How many rows of the workspace each database holds, all tables together. */
export async function rowsPerShard(workspaceId: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const shard of SHARDS) {
    const rows = await workspaceRows(shard, workspaceId);
    counts[shard] = Object.values(rows).reduce((n, table) => n + table.length, 0);
  }
  return counts;
}

/** The workspace's placement in one database (its own row there), or null. */
export async function placementIn(shard: ShardName, workspaceId: string) {
  const row = await env[shard]
    .prepare("SELECT placement FROM workspaces WHERE id = ?")
    .bind(workspaceId)
    .first<{ placement: string }>();
  return row?.placement ?? null;
}

/** A shard other than `shard`. */
export const otherShard = (shard: string): ShardName =>
  SHARDS.find((s) => s !== shard) as ShardName;

/** The directory and every shard. */
export const DATABASES = ["DB", ...SHARDS] as const;

/** A database's binding by name (`DB`, `SHARD_n`). */
export function d1(name: string): D1Database {
  const binding = (env as unknown as Record<string, D1Database | undefined>)[name];
  if (!binding) throw new Error(`no D1 binding ${name}`);
  return binding;
}

/** How many rows `sql` (one `?`, the id; answering `n`) counts in each database. */
export async function countsOf(sql: string, id: string | number): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const name of DATABASES) {
    const row = await d1(name).prepare(sql).bind(id).first<{ n: number }>();
    counts[name] = row?.n ?? 0;
  }
  return counts;
}

/** `n` rows on `shard`, none anywhere else (the directory included). */
export const onlyOn = (shard: string, n = 1) =>
  Object.fromEntries(DATABASES.map((name) => [name, name === shard ? n : 0]));

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits until the background work the writes started (calendar confirms, the
 * outbox, messages, the waitlist desk) is over: the workspace's rows stay the
 * same for a second. A comparison before and after a move needs them still.
 */
export async function settle(shard: ShardName, workspaceId: string): Promise<void> {
  let last = JSON.stringify(await workspaceRows(shard, workspaceId));
  for (let i = 0; i < 30; i++) {
    await sleep(1_000);
    const now = JSON.stringify(await workspaceRows(shard, workspaceId));
    if (now === last) return;
    last = now;
  }
  throw new Error("the workspace's rows never settled");
}
