import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";

/**
 * The set-up every workerd test file starts from (test/setup/apply-migrations.ts, fed by the
 * run's migrated template, vitest.d1-template.ts): the directory and each of the 4 local
 * shards has the schema of the newest migration, holds no row, and is a database of its own.
 */
const DATABASES = ["DB", "SHARD_0", "SHARD_1", "SHARD_2", "SHARD_3"] as const;

const newest = env.TEST_MIGRATIONS.at(-1);
/** What the newest migration creates and adds: tables, and columns of existing tables. */
const created = [...(newest?.queries.join("\n") ?? "").matchAll(/CREATE TABLE `(\w+)`/g)].map(
  ([, table]) => table,
);
const added = [
  ...(newest?.queries.join("\n") ?? "").matchAll(/ALTER TABLE `(\w+)` ADD `(\w+)`/g),
].map(([, table, column]) => ({ table, column }));

async function tablesOf(db: D1Database) {
  const { results } = await db
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
    )
    .all<{ name: string }>();
  return results.map((row) => row.name);
}

describe("the D1 databases a test file starts with", () => {
  it("are the directory and the 4 shards of wrangler.toml", () => {
    const bound = Object.keys(env).filter((name) => /^(DB|SHARD_\d+)$/.test(name));
    expect(bound.sort()).toEqual([...DATABASES]);
  });

  it("hold no row in any table but the migrations' own (their list, the id sequences, the reports' day steps)", async () => {
    for (const name of DATABASES) {
      const db = env[name];
      const seeded = await db.prepare("SELECT name, last FROM id_sequences").all();
      expect(seeded.results, name).toEqual([{ name: "webhooks", last: 0 }]);
      const tables = (await tablesOf(db)).filter(
        (table) => !["d1_migrations", "id_sequences", "report_day_steps"].includes(table),
      );
      const steps = await db
        .prepare("SELECT count(*) AS n, max(i) AS last FROM report_day_steps")
        .first();
      expect(steps, name).toEqual({ n: 1100, last: 1099 });
      expect(tables.length, name).toBeGreaterThan(10);
      const withRows = [];
      for (const table of tables) {
        const row = await db.prepare(`SELECT 1 AS found FROM "${table}" LIMIT 1`).first();
        if (row) withRows.push(table);
      }
      expect(withRows, name).toEqual([]);
    }
  });

  it("each have every migration applied, up to the newest, with its tables and columns", async () => {
    expect(newest?.name).toMatch(/^\d{4}_\w+\.sql$/);
    expect(created.length + added.length).toBeGreaterThan(0);
    for (const name of DATABASES) {
      const db = env[name];
      const { results: applied } = await db
        .prepare("SELECT name FROM d1_migrations ORDER BY id")
        .all<{ name: string }>();
      expect(
        applied.map((row) => row.name),
        name,
      ).toEqual(env.TEST_MIGRATIONS.map((migration) => migration.name));
      expect(await tablesOf(db), name).toEqual(expect.arrayContaining(created));
      for (const { table, column } of added) {
        const { results: columns } = await db
          .prepare("SELECT name FROM pragma_table_info(?)")
          .bind(table)
          .all<{ name: string }>();
        expect(
          columns.map((row) => row.name),
          `${name}.${table}`,
        ).toContain(column);
      }
    }
  });

  it("are five databases, not one file behind five names", async () => {
    // A row written to one shard is seen there and nowhere else.
    await env.SHARD_2.prepare(
      "INSERT INTO workspace_moves (workspace_id, from_shard, to_shard, status, started_at, updated_at) VALUES ('ws-schema-test', 'DB', 'SHARD_2', 'copying', 0, 0)",
    ).run();
    for (const name of DATABASES) {
      const row = await env[name]
        .prepare("SELECT count(*) AS n FROM workspace_moves WHERE workspace_id = 'ws-schema-test'")
        .first<{ n: number }>();
      expect(row?.n, name).toBe(name === "SHARD_2" ? 1 : 0);
    }
  });
});
