import { env } from "cloudflare:workers";

/**
 * The tests' look at stored rows when they do not care which shard holds them:
 * a D1-shaped view over every database, for assertions and fault set-ups that
 * used to read `env.DB` when there was one database. Routing itself is asserted
 * elsewhere (test/integration/shards-*.test.ts), by reading each shard apart.
 *
 * - Directory tables (api_keys, workspace_moves) are read and written in `DB`.
 * - Any other statement runs on every shard; rows found are put together. A
 *   one-row aggregate (a count, a sum) is summed over the shards whose row says
 *   something (not all zero or null), so a count over the file's workspaces
 *   counts them all.
 * - An UPDATE or DELETE runs on every shard (it touches only the shard holding
 *   the rows it names); one of `workspaces` reaches the directory's row too.
 * - An INSERT goes to the shard whose open workspace is among its parameters,
 *   else to every shard (a row with no workspace, such as a hold's fence).
 * - `exec` (a trigger a fault test plants, a table renamed) runs on every shard.
 * A batch is one transaction on each database it goes to when all its
 * statements go to the same ones; otherwise its statements run one by one.
 */
const SHARDS = Object.keys(env)
  .filter((name) => /^SHARD_\d+$/.test(name))
  .sort((a, b) => Number(a.slice(6)) - Number(b.slice(6)));

function binding(name: string): D1Database {
  const db = (env as unknown as Record<string, D1Database | undefined>)[name];
  if (!db) throw new Error(`no D1 binding ${name}`);
  return db;
}
const shards = () => SHARDS.map(binding);

const DIRECTORY_TABLES = /\b(api_keys|workspace_moves)\b/i;
// A leading WITH … (a recursive seed) does not make a write a read.
const WRITE = /^\s*(with\b[\s\S]*?\)\s*)?(insert|update|delete|replace|create|drop|alter)\b/i;
const INSERT = /^\s*(with\b[\s\S]*?\)\s*)?(insert|replace)\b/i;

type Row = Record<string, unknown>;

async function targets(query: string, values: unknown[]): Promise<D1Database[]> {
  if (DIRECTORY_TABLES.test(query)) return [env.DB];
  if (!WRITE.test(query)) return shards();
  if (/\bworkspaces\b/i.test(query) && !INSERT.test(query)) return [env.DB, ...shards()];
  if (!INSERT.test(query)) return shards();
  const ids = values.filter((v): v is string => typeof v === "string");
  if (ids.length > 0) {
    for (const name of SHARDS) {
      const found = await binding(name)
        .prepare(
          "SELECT 1 AS hit FROM workspaces WHERE placement = 'open' AND id IN (SELECT value FROM json_each(?))",
        )
        .bind(JSON.stringify(ids))
        .first();
      if (found) return [binding(name)];
    }
  }
  return shards();
}

const says = (row: Row) => Object.values(row).some((v) => v !== null && v !== 0);

/** Rows of every shard, a one-row aggregate summed over the shards where it is not empty. */
function merged([first, ...rest]: D1Result<Row>[]): D1Result<Row> {
  if (!first) throw new Error("a statement ran on no database");
  const results = [first, ...rest];
  const changes = results.reduce((n, r) => n + (r.meta?.changes ?? 0), 0);
  const meta = { ...first.meta, changes };
  const oneRowEach = results.every((r) => r.results.length === 1);
  if (!oneRowEach) return { ...first, meta, results: results.flatMap((r) => r.results) };
  const [one, ...more] = results.flatMap((r) => r.results).filter(says);
  if (!one) return { ...first, meta, results: first.results };
  const sum: Row = { ...one };
  for (const row of more) {
    for (const [key, value] of Object.entries(row)) {
      if (typeof value === "number" && typeof sum[key] === "number") {
        sum[key] = (sum[key] as number) + value;
      }
    }
  }
  return { ...first, meta, results: [sum] };
}

function statement(query: string, values: unknown[]): D1PreparedStatement {
  const all = async () => {
    const dbs = await targets(query, values);
    const results = await Promise.all(
      dbs.map((db) =>
        db
          .prepare(query)
          .bind(...values)
          .all<Row>(),
      ),
    );
    return merged(results);
  };
  return {
    bind: (...more: unknown[]) => statement(query, [...values, ...more]),
    all,
    run: all,
    first: async (column?: string) => {
      const row = (await all()).results[0] ?? null;
      return column === undefined || row === null ? row : (row[column] ?? null);
    },
    raw: async (options?: { columnNames?: boolean }) => {
      const rows = (await all()).results;
      const values = rows.map((row) => Object.values(row));
      return options?.columnNames ? [Object.keys(rows[0] ?? {}), ...values] : values;
    },
    query,
    values,
  } as unknown as D1PreparedStatement;
}

export const everyShard = {
  prepare: (query: string) => statement(query, []),
  // One transaction per database when every statement goes to the same ones (the usual
  // case); else one after another.
  batch: async (statements: D1PreparedStatement[]) => {
    const parts = statements.map((s) => s as unknown as { query: string; values: unknown[] });
    const where = await Promise.all(parts.map((p) => targets(p.query, p.values)));
    const [first = [], ...rest] = where;
    const same = rest.every(
      (dbs) => dbs.length === first.length && dbs.every((db, i) => db === first[i]),
    );
    if (!same) {
      const results: D1Result[] = [];
      for (const s of statements) results.push(await s.all());
      return results;
    }
    const perDb = await Promise.all(
      first.map((db) => db.batch<Row>(parts.map((p) => db.prepare(p.query).bind(...p.values)))),
    );
    return parts.map((_, i) => merged(perDb.map((results) => results[i] as D1Result<Row>)));
  },
  exec: async (query: string) => {
    for (const db of shards()) await db.exec(query);
    return { count: 1, duration: 0 };
  },
  withSession: () => everyShard,
} as unknown as D1Database;

/** The D1 binding of the shard a workspace lives on, as the directory says. */
export async function shardOf(workspaceId: string): Promise<{ name: string; db: D1Database }> {
  const row = await env.DB.prepare("SELECT shard FROM workspaces WHERE id = ?")
    .bind(workspaceId)
    .first<{ shard: string }>();
  if (!row) throw new Error(`no workspace ${workspaceId} in the directory`);
  return { name: row.shard, db: binding(row.shard) };
}
