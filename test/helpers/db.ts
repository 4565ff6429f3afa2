import { everyShard } from "./every-shard";

/** Rows in a table (of one workspace, when given), read straight from D1. */
export async function rowCount(table: string, workspaceId?: string): Promise<number> {
  const sql = `select count(*) as n from "${table}"${workspaceId ? " where workspace_id = ?" : ""}`;
  const statement = everyShard.prepare(sql);
  const row = await (workspaceId ? statement.bind(workspaceId) : statement).first<{ n: number }>();
  return row?.n ?? 0;
}

/** A D1 binding whose every call fails, as D1 does when it is unreachable. */
export function failingD1(): D1Database {
  const fail = () => Promise.reject(new Error("D1_ERROR: Network connection lost."));
  const statement = (): D1PreparedStatement =>
    ({
      bind: () => statement(),
      first: fail,
      run: fail,
      all: fail,
      raw: fail,
    }) as unknown as D1PreparedStatement;
  return {
    prepare: () => statement(),
    batch: fail,
    exec: fail,
    dump: fail,
    withSession: () => ({ prepare: () => statement(), batch: fail }),
  } as unknown as D1Database;
}
