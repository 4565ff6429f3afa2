import { type SQL, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import type { TenantTable } from "../rules/tables";

/*
 * A move's SQL over whole tables, written once for every table of the plan
 * (src/shards/rules/tables.ts): the rows of one workspace, picked by the
 * table's scope, read and deleted by rowid, inserted from JSON.
 */

const name = (table: TenantTable) => sql.identifier(table.name);

/** The condition picking the workspace's rows of `table`. */
function scoped(table: TenantTable, workspaceId: string): SQL {
  switch (table.scope.kind) {
    case "id":
      return sql`"id" = ${workspaceId}`;
    case "workspace":
      return sql`"workspace_id" = ${workspaceId}`;
    case "via":
      return sql`${sql.identifier(table.scope.column)} in (select "id" from ${sql.identifier(table.scope.parent)} where "workspace_id" = ${workspaceId})`;
  }
}

export type SourceRow = Record<string, unknown> & { __rowid: number };

/** The next `limit` rows of the workspace in `table` after `afterRowid`, in rowid order. */
export const readChunk = (
  db: Database,
  table: TenantTable,
  workspaceId: string,
  afterRowid: number,
  limit: number,
): Promise<SourceRow[]> =>
  db.all<SourceRow>(
    sql`select rowid as "__rowid", * from ${name(table)} where ${scoped(table, workspaceId)} and rowid > ${afterRowid} order by rowid limit ${limit}`,
  );

/** The D1 handle under a drizzle one (drizzle keeps it as `$client`). */
const d1Of = (db: Database) => (db as unknown as { $client: D1Database }).$client;

const quoted = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;

/**
 * Inserts the rows of each JSON parameter (`[[cell, …], …]`, cells in
 * `columns` order), one statement each, all in one batch; a row already there
 * (a chunk copied again after a crash) is left as it is. On the D1 handle
 * itself: drizzle batches only its own query builders.
 */
export async function insertJson(
  db: Database,
  table: TenantTable,
  columns: readonly string[],
  jsons: readonly string[],
): Promise<void> {
  const names = columns.map(quoted).join(", ");
  const values = columns.map((_, i) => `json_extract(value, '$[${i}]')`).join(", ");
  // `where true`: SQLite reads an ON CONFLICT after a bare FROM as a join's constraint.
  const text = `insert into ${quoted(table.name)} (${names}) select ${values} from json_each(?) where true on conflict do nothing`;
  const d1 = d1Of(db);
  if (jsons.length > 0) await d1.batch(jsons.map((json) => d1.prepare(text).bind(json)));
}

/** `scoped`, as text with the workspace as `?1`, for statements sent on the D1 handle. */
function scopedText(table: TenantTable): string {
  switch (table.scope.kind) {
    case "id":
      return `"id" = ?1`;
    case "workspace":
      return `"workspace_id" = ?1`;
    case "via":
      return `${quoted(table.scope.column)} in (select "id" from ${quoted(table.scope.parent)} where "workspace_id" = ?1)`;
  }
}

/** Per table of `tables`, how many rows of the workspace this database holds (one batch). */
export async function countRows(
  db: Database,
  tables: readonly TenantTable[],
  workspaceId: string,
): Promise<number[]> {
  const d1 = d1Of(db);
  const results = await d1.batch<{ n: number }>(
    tables.map((table) =>
      d1
        .prepare(`select count(*) as "n" from ${quoted(table.name)} where ${scopedText(table)}`)
        .bind(workspaceId),
    ),
  );
  return results.map((result) => result.results[0]?.n ?? 0);
}

/** Deletes up to `limit` rows of the workspace in `table`; answers how many went. */
export async function deleteChunk(
  db: Database,
  table: TenantTable,
  workspaceId: string,
  limit: number,
): Promise<number> {
  const result = await db.run(
    sql`delete from ${name(table)} where rowid in (select rowid from ${name(table)} where ${scoped(table, workspaceId)} limit ${limit})`,
  );
  return result.meta.changes ?? 0;
}

/** The integer keys of the workspace's rows of `table` (a table whose keys a move keeps). */
export const integerKeys = (db: Database, table: string, workspaceId: string) =>
  db.all<{ id: number }>(
    sql`select "id" from ${sql.identifier(table)} where "workspace_id" = ${workspaceId}`,
  );

/** Of `ids`, those this database gives another workspace's row of `table`. */
export const keysTakenByOthers = (
  db: Database,
  table: string,
  workspaceId: string,
  ids: readonly number[],
) =>
  db.all<{ id: number }>(
    sql`select "id" from ${sql.identifier(table)} where "id" in (select value from json_each(${JSON.stringify(ids)})) and "workspace_id" <> ${workspaceId}`,
  );
