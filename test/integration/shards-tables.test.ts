import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { MOVED_TABLES, NOT_MOVED } from "../../src/shards/rules/tables";

/**
 * The move's table plan (src/shards/rules/tables.ts) against the migrated
 * schema: a table added by a migration and forgotten by the plan fails here.
 */
const shard = env.SHARD_0;

async function tables(): Promise<string[]> {
  const { results } = await shard
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' ORDER BY name",
    )
    .all<{ name: string }>();
  return results.map((r) => r.name);
}

const pragma = async <T>(statement: string) => (await shard.prepare(statement).all<T>()).results;

describe("the tables a move copies", () => {
  it("lists every table of the schema, moved or left with a reason, and no table twice", async () => {
    const planned = [...MOVED_TABLES.map((t) => t.name), ...Object.keys(NOT_MOVED)];
    expect(new Set(planned).size).toBe(planned.length);
    expect([...planned].sort()).toEqual(await tables());
  });

  it("copies every table after the tables its foreign keys point at", async () => {
    const position = new Map(MOVED_TABLES.map((t, i) => [t.name, i]));
    const late: string[] = [];
    for (const table of MOVED_TABLES) {
      const keys = await pragma<{ table: string; from: string }>(
        `PRAGMA foreign_key_list("${table.name}")`,
      );
      for (const key of keys) {
        const parent = position.get(key.table);
        if (parent === undefined || parent >= (position.get(table.name) ?? 0)) {
          late.push(`${table.name}.${key.from} → ${key.table}`);
        }
      }
    }
    expect(late).toEqual([]);
  });

  it("picks each table's rows by a column it has", async () => {
    const missing: string[] = [];
    for (const table of MOVED_TABLES) {
      const columns = new Set(
        (await pragma<{ name: string }>(`PRAGMA table_info("${table.name}")`)).map((c) => c.name),
      );
      const needed =
        table.scope.kind === "id"
          ? "id"
          : table.scope.kind === "workspace"
            ? "workspace_id"
            : table.scope.column;
      if (!columns.has(needed)) missing.push(`${table.name}.${needed}`);
      if (table.renumbered && !columns.has("id")) missing.push(`${table.name}.id (renumbered)`);
    }
    expect(missing).toEqual([]);
  });

  it("orders the tables around the calendar entries as their triggers need", async () => {
    const at = (name: string) => MOVED_TABLES.findIndex((t) => t.name === name);
    const { results } = await shard
      .prepare("SELECT tbl_name AS on_table, sql FROM sqlite_master WHERE type = 'trigger'")
      .all<{ on_table: string; sql: string }>();
    // Every trigger on a moved table that writes another table is one the plan was ordered for.
    const writes = results.flatMap((t) =>
      [...t.sql.matchAll(/INSERT INTO `(\w+)`/g)].map((m) => `${t.on_table} → ${m[1]}`),
    );
    expect([...new Set(writes)].sort()).toEqual([
      "calendar_entries → calendar_spans",
      "calendar_entries → waitlist_freed",
    ]);
    // Spans first: the entries' insert trigger then finds every span there and writes none.
    expect(at("calendar_spans")).toBeLessThan(at("calendar_entries"));
    // The waitlist after: the hold trigger (on copy) and the delete trigger (on clean-up,
    // in reverse) find no waiting entry and write no freed time.
    for (const waitlist of ["waitlist_entries", "waitlist_freed"]) {
      expect(at(waitlist)).toBeGreaterThan(at("calendar_entries"));
    }
  });
});
