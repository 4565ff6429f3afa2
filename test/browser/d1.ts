import { execFileSync } from "node:child_process";

/** Runs one SQL command on one of the running server's local D1 databases (`DB`, `SHARD_n`). */
function execute<T>(persist: string, database: string, sql: string): T[] {
  const out = execFileSync(
    "npx",
    [
      "wrangler",
      "d1",
      "execute",
      database,
      "--local",
      "--persist-to",
      persist,
      "--json",
      "--command",
      sql,
    ],
    { encoding: "utf8", env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false" } },
  );
  const parsed = JSON.parse(out) as { results: T[] }[];
  return parsed[0]?.results ?? [];
}

/**
 * Reads a workspace's stored rows on the running server, for fields no API
 * response shows: the directory says which shard holds the workspace, and the
 * query runs there.
 */
export function queryD1<T>(persist: string, workspace: string, sql: string): T[] {
  if (!/^[0-9a-f-]{36}$/i.test(workspace)) throw new Error(`not a workspace id: ${workspace}`);
  const [home] = execute<{ shard: string }>(
    persist,
    "DB",
    `SELECT shard FROM workspaces WHERE id = '${workspace}'`,
  );
  if (!home) throw new Error(`no workspace ${workspace} in the directory`);
  return execute<T>(persist, home.shard, sql);
}
