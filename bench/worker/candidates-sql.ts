import { createDb } from "../../src/db/client";
import { candidatesRead } from "../../src/db/queries/waitlist";

/**
 * Prints the waitlist desk's candidate query for one freed day, built by the
 * code the desk runs, with its parameters written in (for `wrangler d1
 * execute`, which takes none). Run by bench/waitlist.ts:
 * `tsx bench/worker/candidates-sql.ts <workspace> <location> <day> <staffer ids…>`.
 */
const [workspaceId = "", locationId = "", day = "", ...stafferIds] = process.argv.slice(2);
const db = createDb({} as D1Database);
const [statement] = candidatesRead(
  { db, workspaceId },
  { locationId, days: [day], stafferIds, resourceIds: [], serviceIds: [], excluded: [], limit: 25 },
).statements as unknown as { toSQL(): { sql: string; params: unknown[] } }[];
const query = statement?.toSQL() ?? { sql: "", params: [] };
let n = 0;
process.stdout.write(
  query.sql.replace(/\?/g, () => {
    const p = query.params[n++];
    return typeof p === "number" ? String(p) : `'${String(p).replace(/'/g, "''")}'`;
  }),
);
