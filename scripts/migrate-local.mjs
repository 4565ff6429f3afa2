// Applies migrations/ to every D1 database of a wrangler config (the directory `DB` and each
// shard) in local state, as `wrangler d1 migrations apply <binding> --local` does for one:
// same files (`<persist>/v3/d1`, named from the config's ids as `wrangler dev` names them),
// same `d1_migrations` table, each pending migration in a transaction of its own. All the
// databases at once in one workerd, instead of one wrangler process (seconds each) per database.
//
//   node scripts/migrate-local.mjs [--config wrangler.toml] [--persist-to .wrangler/state]
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { Miniflare } from "miniflare";
import {
  experimental_readRawConfig,
  unstable_getMiniflareWorkerOptions,
  unstable_splitSqlQuery,
} from "wrangler";

/** Runs in workerd: the pending migrations of one database; answers their names. */
const MIGRATE_WORKER = `export default {
  async fetch(request, env) {
    const binding = new URL(request.url).searchParams.get("binding");
    const { table, migrations } = env.PLAN[binding];
    const db = env[binding];
    await db.prepare(\`CREATE TABLE IF NOT EXISTS \${table}(
      id         INTEGER PRIMARY KEY AUTOINCREMENT,
      name       TEXT UNIQUE,
      applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
    )\`).run();
    const { results } = await db.prepare(\`SELECT name FROM \${table}\`).all();
    const applied = new Set(results.map((row) => row.name));
    const pending = migrations.filter((migration) => !applied.has(migration.name));
    for (const migration of pending) {
      await db.batch([
        ...migration.queries.map((query) => db.prepare(query)),
        db.prepare(\`INSERT INTO \${table} (name) VALUES (?)\`).bind(migration.name),
      ]);
    }
    return Response.json(pending.map((migration) => migration.name));
  },
};`;

/** A folder's migrations in order (0001_… first), each split into its statements. */
function readMigrations(dir) {
  return readdirSync(dir)
    .filter((name) => name.endsWith(".sql"))
    .sort((a, b) => Number.parseInt(a, 10) - Number.parseInt(b, 10))
    .map((name) => ({
      name,
      queries: unstable_splitSqlQuery(readFileSync(join(dir, name), "utf8")),
    }));
}

/**
 * Migrates every D1 database `config` binds, under `persistTo` (wrangler's `--persist-to`;
 * its default, `.wrangler/state` next to the config, when none). Answers, per binding, the
 * migrations it applied (none when it was up to date).
 */
export async function migrateLocalD1({ config = "wrangler.toml", persistTo } = {}) {
  const configPath = resolve(config);
  const { d1Databases = {} } = unstable_getMiniflareWorkerOptions(configPath).workerOptions;
  const declared = experimental_readRawConfig({ config: configPath }).rawConfig.d1_databases ?? [];
  const plan = Object.fromEntries(
    declared.map((database) => [
      database.binding,
      {
        table: database.migrations_table ?? "d1_migrations",
        migrations: readMigrations(
          resolve(dirname(configPath), database.migrations_dir ?? "migrations"),
        ),
      },
    ]),
  );
  const state = persistTo ? resolve(persistTo) : join(dirname(configPath), ".wrangler/state");
  const mf = new Miniflare({
    modules: true,
    script: MIGRATE_WORKER,
    bindings: { PLAN: plan },
    d1Databases,
    d1Persist: join(state, "v3", "d1"),
  });
  try {
    const bindings = Object.keys(plan);
    const applied = await Promise.all(
      bindings.map(async (binding) => {
        const res = await mf.dispatchFetch(`http://migrate/?binding=${binding}`);
        if (!res.ok) throw new Error(`${binding}: migrations failed: ${await res.text()}`);
        return /** @type {string[]} */ (await res.json());
      }),
    );
    return Object.fromEntries(bindings.map((binding, i) => [binding, applied[i] ?? []]));
  } finally {
    await mf.dispose();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const args = process.argv.slice(2);
  const option = (name) => {
    const at = args.indexOf(name);
    return at === -1 ? undefined : args[at + 1];
  };
  const applied = await migrateLocalD1({
    config: option("--config"),
    persistTo: option("--persist-to"),
  });
  for (const [binding, names] of Object.entries(applied)) {
    console.log(
      names.length === 0
        ? `${binding}: no migrations to apply`
        : `${binding}: applied ${names.join(", ")}`,
    );
  }
}
