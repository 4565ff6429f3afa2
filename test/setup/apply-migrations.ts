import { env } from "cloudflare:workers";

/**
 * Every test file starts from storage of its own (its own workerd) and gets the schema of
 * migrations/ in every D1 database (DB and the shards) here. The migrations ran once for the
 * whole run (vitest.d1-template.ts); `TEST_D1_TEMPLATE` copies those databases into this
 * file's storage, which must happen before any query opens them, and answers their tables.
 *
 * Then each database must be the template and nothing else: those tables, every migration
 * recorded in `d1_migrations`, and not one row in any other table (files must not share data,
 * and a template written to by a test would leak into every file after it).
 */
const loaded = await env.TEST_D1_TEMPLATE.fetch("http://d1-template/");
if (!loaded.ok) throw new Error(`D1 template not loaded: ${await loaded.text()}`);
const tables = await loaded.json<string[]>();

/** The D1 bindings: the directory and every shard. */
const databaseNames = Object.keys(env).filter((name) => /^(DB|SHARD_\d+)$/.test(name)) as (
  "DB" | `SHARD_${0 | 1 | 2 | 3}`
)[];

const migrations = env.TEST_MIGRATIONS.map((migration) => migration.name).join(", ");
// Tables whose rows the migrations themselves write (the directory's id sequences) are the
// template's, not a test's.
const SEEDED = new Set(["d1_migrations", "id_sequences", "report_day_steps"]);
const dataTables = tables.filter((table) => !SEEDED.has(table));

/** One round trip per database: its tables, its migrations, and a probe of each table. */
async function assertMigratedAndEmpty(name: (typeof databaseNames)[number]) {
  const db = env[name];
  const [found, applied, ...probes] = await db.batch<{ name: string }>([
    db.prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' ORDER BY name",
    ),
    db.prepare("SELECT name FROM d1_migrations ORDER BY id"),
    // One statement per table (D1 allows few terms in a compound SELECT).
    ...dataTables.map((table) =>
      db.prepare(`SELECT ? AS name WHERE EXISTS (SELECT 1 FROM "${table}")`).bind(table),
    ),
  ]);
  const foundTables = found?.results.map((row) => row.name).join(", ");
  const appliedNames = applied?.results.map((row) => row.name).join(", ");
  if (foundTables !== tables.join(", ") || appliedNames !== migrations) {
    throw new Error(
      `${name} at the start of a test file is not the migrated template: tables [${foundTables}], migrations [${appliedNames}]`,
    );
  }
  const withRows = probes.flatMap((probe) => probe.results.map((row) => row.name));
  if (withRows.length > 0) {
    throw new Error(
      `D1 is not empty at the start of a test file (${name}: ${withRows.join(", ")}): files would share data`,
    );
  }
}

await Promise.all(databaseNames.map(assertMigratedAndEmpty));
