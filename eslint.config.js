// @ts-check
import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

/**
 * Modules, bottom → top (docs/architecture.md): each imports only from modules
 * to its left; src/index.ts (the Worker's entry, and any other file at the root
 * of src) sits above them all. An import from a module into one of equal or
 * higher rank fails lint: relative imports (type-only and re-exports too) are
 * matched by depth (a file n folders below src/<module> climbs n + 1 times to
 * reach src), so a module's own subfolders may share a name with a module
 * (src/calendar/blocks, src/bookings/http). Dynamic imports escape this rule;
 * test/unit/layers.test.ts builds the module graph from every file of src and
 * fails on an upward edge or a cycle, and proves these patterns bite.
 */
export const MODULES = [
  "platform",
  "db",
  "http",
  "shards",
  "tenancy",
  "catalogue",
  "calendar",
  "reports",
  "messages",
  "webhooks",
  "pos",
  "packages",
  "bookings",
  "payments",
  "external-calendars",
  "waitlist",
  "reserve-with-google",
  "app",
];
/** Deeper than any folder of src/ (the layers test checks that every file is covered). */
export const MAX_DEPTH = 6;
const MESSAGE = "(modules in eslint.config.js)";
const up = (depth) => `^(\\.\\./){${depth + 1}}`;
/** A module's files may import neither a module above it nor a file at the root of src. */
const upward = (module, depth) => {
  const above = MODULES.slice(MODULES.indexOf(module) + 1);
  return [
    ...(above.length === 0
      ? []
      : [
          {
            regex: `${up(depth)}(${above.join("|")})(/|\\.ts$|$)`,
            message: `Upward import: src/${module} may not import src/{${above.join(",")}} ${MESSAGE}.`,
          },
        ]),
    {
      regex: `${up(depth)}(?!(${MODULES.join("|")})(/|$))[^/]+$`,
      message: `Upward import: src/${module} may not import a file at the root of src ${MESSAGE}.`,
    },
  ];
};
/** Pure rules: no framework, no storage, no routes or Durable Objects (any depth). */
const PURE = [
  ...["^hono($|/)", "^@hono/", "^drizzle-orm($|/)", "^cloudflare:", "^@cloudflare/"].map(
    (regex) => ({ regex, message: `rules/ may not import this package: ${regex} ${MESSAGE}.` }),
  ),
  {
    regex: "^\\.{1,2}/(.*/)?(http|queries|object|db)(/|\\.ts$|$)",
    message: `rules/ are pure: they may not import an http/, queries/, object/ folder nor src/db ${MESSAGE}.`,
  },
];
/** Views render for routes, so they may not import a module's http/ (src/http, the kit, is below). */
const views = (depth) => [
  {
    regex: `^(?!${up(depth)}http(/|$))\\.{1,2}/(.*/)?http(/|\\.ts$|$)`,
    message: `views/ may not import a module's http/ (its routes) ${MESSAGE}.`,
  },
];
/** Files `depth` folders below src/<module>, optionally only those inside a `role` folder. */
const at = (module, depth, role) => {
  const glob = `src/${module}/${"*/".repeat(depth)}*.ts`;
  return role ? [[glob, `src/${module}/**/${role}/**`]] : [glob];
};
/**
 * One no-restricted-imports entry per module and depth, then the same with the rules/ and
 * views/ patterns added for files of those folders: flat config does not merge a rule's
 * options, the last matching entry wins, so each entry carries all the patterns of its files.
 */
const modules = MODULES.flatMap((module) =>
  Array.from({ length: MAX_DEPTH }, (_, depth) => [
    { files: at(module, depth), patterns: upward(module, depth) },
    { files: at(module, depth, "rules"), patterns: [...upward(module, depth), ...PURE] },
    { files: at(module, depth, "views"), patterns: [...upward(module, depth), ...views(depth)] },
  ]).flat(),
).map(({ files, patterns }) => ({
  files,
  rules: { "no-restricted-imports": ["error", { patterns }] },
}));

/** D1 binds at most 100 parameters per statement; inArray with a JS array binds one per element. */
const IN_LISTS = {
  selector: "ImportSpecifier[imported.name=/^(inArray|notInArray)$/]",
  message:
    "Use idIn or inSubquery from src/db/bounded.ts: inArray binds one parameter per element (D1 allows 100).",
};
/** Where SQL is built: a module's queries/ and src/db. */
const SQL_HOMES = ["src/db/**", "src/*/queries/**"];
const SQL_MESSAGE =
  "SQL lives in a module's queries/ (or src/db): call or add a named query or builder there.";
/** Statements built on the drizzle handle (`db`, `scope.db`, `c.var.db`, `this.db` …). */
const DRIZZLE_CALLS = ["[object.name='db']", "[object.property.name='db']"].map((object) => ({
  selector: `CallExpression > MemberExpression.callee[property.name=/^(select|selectDistinct|insert|update|delete)$/]${object}`,
  message: SQL_MESSAGE,
}));

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
      "no-restricted-syntax": ["error", IN_LISTS],
      "no-console": "off",
    },
  },
  // Logs go through src/platform/log.ts, which keeps secrets and SQL parameters out of them.
  { files: ["src/**/*.ts"], rules: { "no-console": "error" } },
  { files: ["src/platform/log.ts"], rules: { "no-console": "off" } },
  ...modules,
  // SQL is built in queries/: elsewhere neither drizzle-orm nor a statement on the drizzle
  // handle (use-cases take `Statement` / `Condition` from src/db/statement.ts). A second
  // no-restricted-imports entry would replace the modules' options for the same files, so
  // the typescript-eslint twin of the rule (same options) carries this one beside them.
  {
    files: ["src/**/*.ts", "widget/**/*.ts", "widget/**/*.tsx"],
    ignores: SQL_HOMES,
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        { patterns: [{ group: ["drizzle-orm", "drizzle-orm/*"], message: SQL_MESSAGE }] },
      ],
    },
  },
  {
    files: ["src/**/*.ts"],
    ignores: SQL_HOMES,
    rules: { "no-restricted-syntax": ["error", IN_LISTS, ...DRIZZLE_CALLS] },
  },
);
