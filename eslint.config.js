// @ts-check
import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

/**
 * Layers, each importing only downwards (README "Architecture"):
 *   routes, middleware (HTTP) → use-cases (bookings, orders, calendar, webhooks)
 *   → views (response shapes) → db (persistence) and domain (pure rules).
 * An import that climbs out of its folder into a layer above fails lint. A
 * relative import is matched on the src folder it lands in, so a folder inside
 * a layer must not share a name with a top-level src folder it may not import.
 * Hono's request Context stays in the HTTP layer: a use-case takes plain
 * inputs and its dependencies (scope, bindings, render context).
 */
const into = (folders) => `^(\\.\\./)+(${folders.join("|")})(/|\\.ts$|$)`;
const layer = (files, folders, packages = []) => ({
  files,
  rules: {
    "no-restricted-imports": [
      "error",
      {
        patterns: [
          {
            regex: into(folders),
            message: `Upward import: ${files[0].split("/")[1]} may not import src/{${folders.join(",")}} (layers in eslint.config.js).`,
          },
          ...packages.map((regex) => ({
            regex,
            message: `${files[0].split("/")[1]} may not import this package: ${regex} (layers in eslint.config.js).`,
          })),
        ],
      },
    ],
  },
});
const HTTP = ["routes", "middleware", "app"];
const USE_CASES = ["bookings", "orders", "calendar", "webhooks", "durable-objects"];

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
      "no-console": "off",
    },
  },
  layer(
    ["src/domain/**/*.ts"],
    [...HTTP, ...USE_CASES, "views", "db", "lib", "env", "index"],
    ["^hono($|/)", "^@hono/", "^drizzle-orm($|/)", "^cloudflare:", "^@cloudflare/"],
  ),
  layer(["src/db/**/*.ts"], [...HTTP, ...USE_CASES, "views"], ["^hono($|/)"]),
  layer(["src/views/**/*.ts"], [...HTTP, ...USE_CASES]),
  layer(
    ["src/bookings/**/*.ts", "src/orders/**/*.ts", "src/calendar/**/*.ts", "src/webhooks/**/*.ts"],
    HTTP,
    ["^hono($|/)"],
  ),
);
