// @ts-check
import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

/**
 * Layers, each importing only downwards (README "Architecture"):
 *   routes, middleware (HTTP) → use-cases (bookings, orders, goods, services,
 *   blocked-spots, calendar, webhooks) → views (response shapes) → db
 *   (persistence) and domain (pure rules).
 * An import that climbs out of its layer's folder into a layer above fails
 * lint. Relative imports are matched by depth (a file n folders below
 * src/<layer> climbs n + 1 times to reach src), so a layer's own subfolders
 * may share a name with a top-level folder (src/domain/webhooks).
 * Hono's request Context stays in the HTTP layer: a use-case takes plain
 * inputs and its dependencies (scope, bindings, render context).
 * Within and across layers, no two top-level folders of src/ import each
 * other, directly or through others: test/unit/layers.test.ts builds the
 * folder graph and fails on a cycle.
 */
const MAX_DEPTH = 4;
const layer = (folder, forbidden, packages = []) =>
  Array.from({ length: MAX_DEPTH }, (_, depth) => ({
    files: [`src/${folder}/${"*/".repeat(depth)}*.ts`],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            ...(forbidden.length === 0
              ? []
              : [
                  {
                    regex: `^(\\.\\./){${depth + 1}}(${forbidden.join("|")})(/|\\.ts$|$)`,
                    message: `Upward import: src/${folder} may not import src/{${forbidden.join(",")}} (layers in eslint.config.js).`,
                  },
                ]),
            ...packages.map((regex) => ({
              regex,
              message: `src/${folder} may not import this package: ${regex} (layers in eslint.config.js).`,
            })),
          ],
        },
      ],
    },
  }));
const HTTP = ["routes", "middleware", "app"];
const USE_CASE_FOLDERS = [
  "availability",
  "bookings",
  "orders",
  "goods",
  "services",
  "blocked-spots",
  "resources",
  "staffers",
  "vouchers",
  "reservations",
];
const USE_CASES = [...USE_CASE_FOLDERS, "calendar", "webhooks", "delivery", "durable-objects"];

export default tseslint.config(
  {
    ignores: ["node_modules/", ".wrangler/", "migrations/", "worker-configuration.d.ts", "dist/"],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2024,
      sourceType: "module",
      globals: { ...globals.node },
    },
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-non-null-assertion": "error",
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
      eqeqeq: ["error", "always", { null: "ignore" }],
      // D1 binds at most 100 parameters per statement; inArray with a JS array binds one per
      // element. IN lists go through idIn (json_each) or inSubquery, both in src/db/bounded.ts.
      "no-restricted-syntax": [
        "error",
        {
          selector: "ImportSpecifier[imported.name=/^(inArray|notInArray)$/]",
          message:
            "Use idIn or inSubquery from src/db/bounded.ts: inArray binds one parameter per element (D1 allows 100).",
        },
      ],
      "no-console": "off",
    },
  },
  // Logs go through src/platform/log.ts, which keeps secrets and SQL parameters out of them.
  { files: ["src/**/*.ts"], rules: { "no-console": "error" } },
  { files: ["src/platform/log.ts"], rules: { "no-console": "off" } },
  ...layer(
    "domain",
    [...HTTP, ...USE_CASES, "views", "db", "lib", "env", "index"],
    ["^hono($|/)", "^@hono/", "^drizzle-orm($|/)", "^cloudflare:", "^@cloudflare/"],
  ),
  ...layer("db", [...HTTP, ...USE_CASES, "views"], ["^hono($|/)"]),
  ...layer("views", [...HTTP, ...USE_CASES]),
  ...[...USE_CASE_FOLDERS, "calendar", "webhooks", "delivery"].flatMap((folder) =>
    layer(folder, HTTP, ["^hono($|/)"]),
  ),
  // Handlers (public and admin) validate, call a use-case or a query of src/db/queries, and render.
  ...layer("routes/public", [], ["^drizzle-orm($|/)"]),
  ...layer("routes/admin", [], ["^drizzle-orm($|/)"]),
  // SQL lives in src/db: handlers, middleware and use-cases call the named queries and batch
  // builders of src/db/queries (and take `Statement` / `Condition` from src/db/statement.ts).
  // A second no-restricted-imports entry would replace the layers' options for the same files
  // (flat config does not merge a rule's options), so the typescript-eslint twin of the rule
  // (same options) carries this one alongside them.
  {
    files: ["src/**/*.ts", "widget/**/*.ts", "widget/**/*.tsx"],
    ignores: ["src/db/**"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["drizzle-orm", "drizzle-orm/*"],
              message:
                "SQL lives in src/db: call or add a named query or builder in src/db/queries.",
            },
          ],
        },
      ],
    },
  },
);
