import { constants, rmSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { D1Migration } from "@cloudflare/vitest-pool-workers";
import { Miniflare } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";

/**
 * Miniflare keeps every D1 database as one SQLite file in its D1 folder, named after the
 * database's id (miniflare's `durableObjectNamespaceIdFromName`); workerd opens it when the
 * database is first used. The migrated files are built once per run (`buildD1Template`) and
 * copied into each test file's own folder before its first query (`copyD1Template`).
 */
const D1_OBJECTS = "miniflare-D1DatabaseObject";

/**
 * Applies every migration to the database `?binding=` names: all of them as one batch (one
 * transaction), `d1_migrations` listing them as `wrangler d1 migrations apply` would.
 */
const MIGRATE_WORKER = `export default {
  async fetch(request, env) {
    const db = env[new URL(request.url).searchParams.get("binding")];
    await db.batch([
      db.prepare(\`CREATE TABLE d1_migrations (
        id         INTEGER PRIMARY KEY AUTOINCREMENT,
        name       TEXT UNIQUE,
        applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
      )\`),
      ...env.MIGRATIONS.flatMap((migration) => [
        ...migration.queries.map((query) => db.prepare(query)),
        db.prepare("INSERT INTO d1_migrations (name) VALUES (?)").bind(migration.name),
      ]),
    ]);
    const { results } = await db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' ORDER BY name")
      .all();
    return Response.json(results.map((row) => row.name));
  },
};`;

/** The migrated databases of a run: a folder of SQLite files, one per D1 binding. */
export interface D1Template {
  /** The folder holding the `<id>.sqlite` files. */
  dir: string;
  /** The files to copy: each database and its write-ahead log. */
  files: string[];
  /** The tables every database has (the same migrations ran on each), by name. */
  tables: string[];
}

/**
 * Builds every D1 database of wrangler.toml (DB and the shards) with the schema of migrations/
 * in a Miniflare of its own, the databases at once. The ids come from
 * wrangler's own reading of the config, as the pool's do, so the files' names match.
 */
export async function buildD1Template(
  configPath: string,
  migrations: D1Migration[],
): Promise<D1Template> {
  const { d1Databases = {} } = unstable_getMiniflareWorkerOptions(configPath).workerOptions;
  const root = await fs.mkdtemp(path.join(os.tmpdir(), "salon-d1-template-"));
  // Gone with the run (the pool's Miniflares clean their own folders the same way).
  process.once("exit", () => rmSync(root, { recursive: true, force: true }));
  // The migrations run inside workerd (one request per database): through Miniflare's Node
  // proxy every prepared statement would be a round trip of its own.
  const mf = new Miniflare({
    modules: true,
    script: MIGRATE_WORKER,
    bindings: { MIGRATIONS: migrations },
    d1Databases,
    d1Persist: root,
  });
  let created: string[];
  try {
    created = await Promise.all(
      Object.keys(d1Databases).map(async (binding) => {
        const res = await mf.dispatchFetch(`http://template/?binding=${binding}`);
        if (!res.ok) throw new Error(`D1 template: ${binding} not migrated: ${await res.text()}`);
        return ((await res.json()) as string[]).join(", ");
      }),
    );
  } finally {
    await mf.dispose();
  }
  if (new Set(created).size !== 1) {
    throw new Error(`D1 template: schemas differ: ${created.join(" | ")}`);
  }
  const tables = created[0]?.split(", ") ?? [];
  const dir = path.join(root, D1_OBJECTS);
  // Each database with its write-ahead log: the Miniflare is gone (stopped, not closed, so no
  // checkpoint), and a database with its log is the state it committed (SQLite replays the
  // log when it next opens it). The shared-memory index is rebuilt from the log.
  const files = (await fs.readdir(dir)).filter(
    (name) => /\.sqlite(-wal)?$/.test(name) && !name.startsWith("metadata."),
  );
  const databases = files.filter((name) => name.endsWith(".sqlite"));
  if (databases.length !== Object.keys(d1Databases).length) {
    throw new Error(
      `D1 template: expected ${Object.keys(d1Databases).length} databases in ${dir}, found ${databases.join(", ")}`,
    );
  }
  return { dir, files, tables };
}

/**
 * Copies the template's databases into a test file's D1 folder (`d1Folder`: its Miniflare's
 * D1 persist path). Refuses to overwrite: a database already there was opened by workerd, and
 * a file copied under an open database would corrupt it.
 */
export async function copyD1Template(template: D1Template, d1Folder: string) {
  const dir = path.join(d1Folder, D1_OBJECTS);
  await fs.mkdir(dir, { recursive: true });
  await Promise.all(
    template.files.map((name) =>
      fs.copyFile(path.join(template.dir, name), path.join(dir, name), constants.COPYFILE_EXCL),
    ),
  );
}
