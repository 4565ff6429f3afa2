import { env } from "cloudflare:workers";

/**
 * Every test file starts from storage of its own (its own workerd) and gets the schema of
 * migrations/ in every D1 database (DB and the shards) here. The migrations ran once for the
 * whole run (vitest.d1-template.ts); `TEST_D1_TEMPLATE` copies those databases into this
 * file's storage, which must happen before any query opens them.
 *
 * Then each database must be the template and nothing else: every migration recorded in
 * `d1_migrations`, and not one row in any other table (files must not share data, and a
 * template written to by a test would leak into every file after it).
 */
const loaded = await env.TEST_D1_TEMPLATE.fetch("http://d1-template/");
if (!loaded.ok) throw new Error(`D1 template not loaded: ${await loaded.text()}`);

/** The D1 bindings: the directory and every shard. */
export const databaseNames = Object.keys(env).filter((name) => /^(DB|SHARD_\d+)$/.test(name)) as (
  "DB" | `SHARD_${0 | 1 | 2 | 3}`
)[];

const expected = env.TEST_MIGRATIONS.map((migration) => migration.name).join(", ");

async function assertMigratedAndEmpty(name: (typeof databaseNames)[number]) {
  const db = env[name];
  const [tables, applied] = await db.batch<{ name: string }>([
    db.prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name <> 'd1_migrations'",
    ),
    db.prepare("SELECT name FROM d1_migrations ORDER BY id"),
  ]);
  const names = applied?.results.map((row) => row.name).join(", ");
  if (names !== expected) {
    throw new Error(
      `${name} at the start of a test file has migrations [${names}], not [${expected}]`,
    );
  }
  const tableNames = tables?.results.map((row) => row.name) ?? [];
  // One statement per table, one round trip (D1 allows few terms in a compound SELECT).
  const checks = await db.batch<{ name: string }>(
    tableNames.map((table) =>
      db.prepare(`SELECT ? AS name WHERE EXISTS (SELECT 1 FROM "${table}")`).bind(table),
    ),
  );
  const withRows = checks.flatMap((check) => check.results);
  if (withRows.length > 0) {
    throw new Error(
      `D1 is not empty at the start of a test file (${name}: ${withRows.map((t) => t.name).join(", ")}): files would share data`,
    );
  }
}

await Promise.all(databaseNames.map(assertMigratedAndEmpty));
