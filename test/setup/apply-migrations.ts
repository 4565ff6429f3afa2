import { env } from "cloudflare:workers";

/**
 * Every test file starts from empty storage (its own workerd: storage is isolated per file)
 * and gets the schema of migrations/ here: all the migrations, in order, as one batch (one
 * round trip, one transaction) rather than `applyD1Migrations`'s batch per migration with its
 * bookkeeping round trips. `d1_migrations` lists them as `applyD1Migrations` would.
 */
const tables = await env.DB.prepare(
  "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
).all<{ name: string }>();
if (tables.results.length > 0) {
  throw new Error(
    `D1 is not empty at the start of a test file (${tables.results.map((t) => t.name).join(", ")}): files would share data`,
  );
}
await env.DB.batch([
  env.DB.prepare(
    `CREATE TABLE d1_migrations (
      id         INTEGER PRIMARY KEY AUTOINCREMENT,
      name       TEXT UNIQUE,
      applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
    )`,
  ),
  ...env.TEST_MIGRATIONS.flatMap((migration) => [
    ...migration.queries.map((query) => env.DB.prepare(query)),
    env.DB.prepare("INSERT INTO d1_migrations (name) VALUES (?)").bind(migration.name),
  ]),
]);
