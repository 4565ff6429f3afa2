import { env } from "cloudflare:workers";

/**
 * What each D1 database holds, read straight from its binding (no routing, no
 * placement check): the routing tests' ground truth of where rows landed.
 */

/** Every D1 binding of the test run: the directory first, then the shards in number order. */
export const D1_NAMES = Object.keys(env)
  .filter((name) => /^(DB|SHARD_\d+)$/.test(name))
  .sort((a, b) => (a === "DB" ? -1 : b === "DB" ? 1 : Number(a.slice(6)) - Number(b.slice(6))));

export const SHARD_NAMES = D1_NAMES.filter((name) => name !== "DB");

/** The directory's own tables: everything else in `DB` is a tenant table of older workspaces. */
export const DIRECTORY_TABLES = new Set(["workspaces", "api_keys", "workspace_moves"]);

export function d1(name: string): D1Database {
  const db = (env as unknown as Record<string, D1Database | undefined>)[name];
  if (!db) throw new Error(`no D1 binding ${name}`);
  return db;
}

export interface Holdings {
  /** The tables with a `workspace_id` column. */
  owned: Set<string>;
  /** Rows per table per workspace, for the tables with a `workspace_id` column. */
  byWorkspace: Map<string, Map<string, number>>;
  /** Row counts of the tables without one (a booking's services, an order's lines…). */
  unowned: Map<string, number>;
  /** The `workspaces` rows there: id → placement. */
  placements: Map<string, string>;
}

/** Every table of one database, its rows counted per workspace. */
export async function holdings(name: string): Promise<Holdings> {
  const db = d1(name);
  const tables = await db
    .prepare(
      "SELECT m.name AS name, EXISTS (SELECT 1 FROM pragma_table_info(m.name) p WHERE p.name = 'workspace_id') AS owned " +
        "FROM sqlite_master m WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND m.name NOT LIKE '_cf_%' " +
        // The migrations' own tables (their list, the id sequences they seed) hold no tenant row.
        "AND m.name NOT IN ('d1_migrations', 'id_sequences', 'report_day_steps', 'workspaces')",
    )
    .all<{ name: string; owned: number }>();
  const owned = tables.results.filter((t) => t.owned === 1).map((t) => t.name);
  const others = tables.results.filter((t) => t.owned !== 1).map((t) => t.name);
  // D1 answers an empty batch with nothing at all.
  const batch = async <T>(statements: D1PreparedStatement[]) =>
    statements.length > 0 ? db.batch<T>(statements) : [];
  const [counted, plain, placed] = await Promise.all([
    batch<{ t: string; ws: string | null; n: number }>(
      owned.map((t) =>
        db.prepare(
          `SELECT '${t}' AS t, workspace_id AS ws, count(*) AS n FROM "${t}" GROUP BY workspace_id`,
        ),
      ),
    ),
    batch<{ t: string; n: number }>(
      others.map((t) => db.prepare(`SELECT '${t}' AS t, count(*) AS n FROM "${t}"`)),
    ),
    db.prepare("SELECT id, placement FROM workspaces").all<{ id: string; placement: string }>(),
  ]);
  const byWorkspace = new Map<string, Map<string, number>>();
  for (const row of counted.flatMap((r) => r.results)) {
    const ws = row.ws ?? "(none)";
    const tablesOf = byWorkspace.get(ws) ?? new Map<string, number>();
    tablesOf.set(row.t, row.n);
    byWorkspace.set(ws, tablesOf);
  }
  const unowned = new Map(plain.flatMap((r) => r.results).map((row) => [row.t, row.n]));
  const placements = new Map(placed.results.map((row) => [row.id, row.placement]));
  return { owned: new Set(owned), byWorkspace, unowned, placements };
}

/** The tables of `holdings` where `workspaceId` has rows, with their counts. */
export const rowsOf = (h: Holdings, workspaceId: string): Record<string, number> =>
  Object.fromEntries(h.byWorkspace.get(workspaceId) ?? []);
