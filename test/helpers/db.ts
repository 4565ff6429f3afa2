import { env } from "cloudflare:workers";

/** Rows in a table (of one workspace, when given), read straight from D1. */
export async function rowCount(table: string, workspaceId?: string): Promise<number> {
  const sql = `select count(*) as n from "${table}"${workspaceId ? " where workspace_id = ?" : ""}`;
  const statement = env.DB.prepare(sql);
  const row = await (workspaceId ? statement.bind(workspaceId) : statement).first<{ n: number }>();
  return row?.n ?? 0;
}
