import fs from "node:fs";
import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { Response, type Miniflare } from "miniflare";
import type { Plugin } from "vitest/config";
import { buildD1Template, copyD1Template } from "./vitest.d1-template";
import { srcBundle } from "./vitest.src-bundle";

type Limits = Record<
  | "API_RATE_LIMIT"
  | "ADDRESS_RATE_LIMIT"
  | "ADMIN_RATE_LIMIT"
  | "RWG_ADDRESS_RATE_LIMIT"
  | "PUBLISHABLE_KEY_RATE_LIMIT"
  | "PUBLISHABLE_CLIENT_RATE_LIMIT"
  | "MANAGE_RATE_LIMIT"
  | "MANAGE_WRITE_RATE_LIMIT"
  | "LINK_RATE_LIMIT"
  | "LINK_WORKSPACE_RATE_LIMIT",
  number
>;

/**
 * The Workers pool as every workerd test run uses it: the real bindings of
 * wrangler.toml, migrated D1 databases for test/setup/apply-migrations.ts, the test
 * settings, and per-minute rate limits (minute windows make limits testable
 * without racing a 10 s boundary).
 *
 * Migrations run once per run, not once per file and database: every D1 database of
 * wrangler.toml (DB and the shards) is migrated once into a template, started here so that it
 * builds while Vite starts; each file's first step (`TEST_D1_TEMPLATE`, a service in this
 * process, given the file's Miniflare) copies the template's SQLite files into that
 * Miniflare's own D1 folder before workerd opens them. Each file still starts from storage
 * of its own, with no row in it.
 */
export async function workersPool(limits: Limits, bindings: Record<string, string>) {
  const configPath = path.join(import.meta.dirname, "wrangler.toml");
  const migrations = await readD1Migrations(path.join(import.meta.dirname, "migrations"));
  const template = buildD1Template(configPath, migrations);
  // Awaited by the first file; a failure is reported there, not as an unhandled rejection.
  template.catch(() => undefined);
  const loadTemplate = async (_request: unknown, mf: Miniflare) => {
    const d1Folder = mf.unsafeGetPersistPaths().get("d1");
    if (d1Folder === undefined) throw new Error("the test Miniflare has no D1 folder");
    const built = await template;
    await copyD1Template(built, d1Folder);
    // The template's tables: what each file's check expects to find, all empty.
    return Response.json(built.tables);
  };
  const pool = cloudflareTest({
    wrangler: { configPath: "./wrangler.toml" },
    miniflare: {
      serviceBindings: { TEST_D1_TEMPLATE: loadTemplate },
      ratelimits: Object.fromEntries(
        Object.entries(limits).map(([name, limit]) => [name, { simple: { limit, period: 60 } }]),
      ),
      bindings: {
        TEST_MIGRATIONS: migrations,
        ADMIN_TOKEN: "test-admin-token",
        MANAGE_TOKEN_SECRET: "test-manage-token-secret",
        CUSTOMER_ID_SECRET: "test-customer-id-secret",
        ALLOW_PRIVATE_WEBHOOKS: "true",
        WEBHOOK_RETRY_BASE_SECONDS: "0",
        // The origin test requests are sent to (test/helpers/http.ts BASE): links are built on it.
        PUBLIC_ORIGIN: "http://api.test",
        ...bindings,
      },
    },
  });
  const prebundle: Plugin = {
    name: "salon:prebundle-packages",
    config: () => ({
      test: { deps: { optimizer: { ssr: { enabled: true, include: prebundledPackages() } } } },
    }),
  };
  // src/ as one module, the packages without their source maps (vitest.src-bundle.ts).
  return [pool, prebundle, srcBundle(import.meta.dirname)];
}

/**
 * The packages the Worker and the tests import ("hono", "drizzle-orm/sqlite-core", …), found
 * by reading src/ and the workerd tests' folders. Every test file has a workerd of its own, which
 * fetches each module it imports from Vite one at a time; the packages alone are hundreds of
 * small modules (zod, drizzle, libphonenumber's metadata), ~2 s of every file's set-up.
 * Pre-bundled by Vite's dependency optimizer, each is one module (with shared chunks, so one
 * instance of each package). Every specifier is listed: one left out would load a second copy.
 */
export function prebundledPackages(): string[] {
  const root = import.meta.dirname;
  const found = new Set<string>();
  const specifier = /(?:\bfrom|\bimport)\s*\(?\s*"((?:@[\w.-]+\/)?\w[\w.-]*(?:\/[\w.-]+)*)"/g;
  const installed = (name: string) => {
    const [first = "", second = ""] = name.split("/");
    const pkg = first.startsWith("@") ? `${first}/${second}` : first;
    return fs.existsSync(path.join(root, "node_modules", pkg, "package.json"));
  };
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.m?[jt]s$/.test(entry.name)) {
        for (const [, name] of fs.readFileSync(full, "utf8").matchAll(specifier)) {
          if (name && !/^vitest(\/|$)/.test(name) && installed(name)) found.add(name);
        }
      }
    }
  };
  // The code workerd runs; not test/unit, test/browser or test/readme (those run under Node).
  const folders = ["src", "integration", "durable-objects", "queues", "fuzz", "helpers", "setup"];
  for (const folder of folders) {
    const dir = path.join(root, folder === "src" ? "src" : `test/${folder}`);
    if (fs.existsSync(dir)) walk(dir);
  }
  return [...found].sort();
}
