import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// The modules' order and the rule's depth, from the config itself (plain JS: imported by URL,
// typed here).
const { MODULES, MAX_DEPTH } = (await import(pathToFileURL(resolve("eslint.config.js")).href)) as {
  MODULES: string[];
  MAX_DEPTH: number;
};

// The module rule of eslint.config.js, run on import lines as if they sat in a
// file of each module (the files need not exist).
const eslint = new ESLint({ cwd: process.cwd() });

async function problems(filePath: string, source: string) {
  const [result] = await eslint.lintText(`${source}\nexport { x };\n`, { filePath });
  const messages = result?.messages ?? [];
  const fatal = messages.find((m) => m.fatal || m.ruleId === null);
  if (fatal) throw new Error(`${filePath} was not linted: ${fatal.message}`);
  return messages.filter((m) => m.ruleId === "no-restricted-imports").map((m) => m.message);
}

const upward: [string, string][] = [
  // Into a module above, at every depth, type-only and re-exports too.
  ["src/platform/fixture.ts", 'import { x } from "../db/client";'],
  ["src/platform/rules/fixture.ts", 'import type { x } from "../../calendar/rules";'],
  ["src/db/fixture.ts", 'import { x } from "../http/responses";'],
  ["src/db/queries/fixture.ts", 'import type { x } from "../../bookings/queries/bookings";'],
  ["src/http/fixture.ts", 'import type { x } from "../calendar/client";'],
  ["src/http/fixture.ts", 'import { x } from "../tenancy/api-keys";'],
  [
    "src/tenancy/http/admin/workspaces/fixture.ts",
    'import { x } from "../../../../bookings/queries/x";',
  ],
  [
    "src/catalogue/http/staffers/fixture.ts",
    'import * as x from "../../../bookings/http/staffers/x";',
  ],
  [
    "src/catalogue/http/admin/resources/fixture.ts",
    'import { x } from "../../../../calendar/blocks/x";',
  ],
  ["src/calendar/queries/fixture.ts", 'import { x } from "../../bookings/queries/booking-form";'],
  ["src/calendar/http/reservations/fixture.ts", 'export { x } from "../../../bookings/http/x";'],
  ["src/calendar/object/fixture.ts", 'import { x } from "../../messages/x";'],
  ["src/messages/fixture.ts", 'import { x } from "../app/middleware/outbox-dispatch";'],
  ["src/webhooks/fixture.ts", 'import { x } from "../pos/x";'],
  ["src/pos/fixture.ts", 'import { x } from "../bookings";'],
  ["src/bookings/fixture.ts", 'import { x } from "../waitlist/queries/waitlist";'],
  ["src/bookings/http/manage/fixture.ts", 'import { x } from "../../../waitlist/wake";'],
  ["src/external-calendars/object/fixture.ts", 'import { x } from "../../waitlist/wake";'],
  ["src/waitlist/fixture.ts", 'import type { x } from "../app/app";'],
  ["src/waitlist/rules/deep/er/fixture.ts", 'import { x } from "../../../../app/app.ts";'],
  // Nor the root of src (the Worker's entry), from any module.
  ["src/app/fixture.ts", 'import { x } from "../index";'],
  ["src/app/public/fixture.ts", 'import type { x } from "../../index.ts";'],
  ["src/db/fixture.ts", 'import { x } from "../worker";'],
  // Pure rules: no framework, no storage, no routes, queries or objects.
  ["src/calendar/rules/fixture.ts", 'import { x } from "hono";'],
  ["src/calendar/rules/fixture.ts", 'import type { x } from "@hono/zod-openapi";'],
  ["src/bookings/rules/fixture.ts", 'import { x } from "drizzle-orm";'],
  ["src/platform/rules/fixture.ts", 'import { x } from "cloudflare:workers";'],
  ["src/waitlist/rules/fixture.ts", 'import type { x } from "@cloudflare/workers-types";'],
  ["src/calendar/rules/fixture.ts", 'import type { x } from "../queries/availability";'],
  ["src/calendar/rules/fixture.ts", 'import { x } from "../object/calendar";'],
  ["src/bookings/rules/fixture.ts", 'import { x } from "../http/bookings/schema";'],
  ["src/calendar/rules/fixture.ts", 'import { x } from "../../http/responses";'],
  ["src/pos/rules/fixture.ts", 'import type { x } from "../../db/schema";'],
  ["src/pos/rules/deep/fixture.ts", 'import { x } from "../../../catalogue/queries/services";'],
  // Views are below their routes.
  ["src/bookings/views/fixture.ts", 'import { x } from "../http/bookings/schema";'],
  ["src/waitlist/views/fixture.ts", 'import type { x } from "../../calendar/http/cart-items";'],
];

const downward: [string, string][] = [
  ["src/platform/fixture.ts", 'import { x } from "./rules/money";'],
  ["src/db/fixture.ts", 'import { x } from "../platform/errors";'],
  ["src/http/fixture.ts", 'import type { x } from "../db/scope";'],
  ["src/calendar/http/reservations/fixture.ts", 'import { x } from "../cart-items";'],
  ["src/calendar/queries/fixture.ts", 'import { x } from "../../tenancy/queries/booking-form";'],
  [
    "src/bookings/http/bookings/fixture.ts",
    'import { x } from "../../../calendar/http/cart-items";',
  ],
  ["src/bookings/fixture.ts", 'import { x } from "./http/bookings/schema";'],
  ["src/waitlist/fixture.ts", 'import { x } from "../bookings/create";'],
  ["src/app/public/fixture.ts", 'import { x } from "../../waitlist/http/waitlist";'],
  ["src/app/fixture.ts", 'import { x } from "./middleware/auth";'],
  ["src/index.ts", 'import { x } from "./app/app";'],
  // A module's own subfolders may share a name with a module.
  ["src/calendar/http/fixture.ts", 'import { x } from "../blocks/resource-block";'],
  ["src/bookings/ops/fixture.ts", 'import { x } from "../http/bookings/fields";'],
  // Rules import rules and platform; views import queries' types and the HTTP kit.
  ["src/calendar/rules/fixture.ts", 'import { x } from "../../platform/rules/duration";'],
  ["src/calendar/rules/fixture.ts", 'import { x } from "./sessions";'],
  ["src/calendar/rules/fixture.ts", 'import { z } from "zod";'],
  ["src/bookings/views/fixture.ts", 'import type { x } from "../queries/bookings";'],
  ["src/bookings/views/fixture.ts", 'import { x } from "../../http/api-paths";'],
  ["src/bookings/views/fixture.ts", 'import { x } from "@hono/zod-openapi";'],
  ["src/bookings/http/bookings/fixture.ts", 'import type { x } from "hono";'],
];

describe("module boundaries (eslint.config.js)", () => {
  it.each(upward)("%s: %s fails lint", async (file, line) => {
    const found = await problems(file, line);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/modules in eslint\.config\.js/);
  });

  it.each(downward)("%s: %s passes", async (file, line) => {
    expect(await problems(file, line)).toEqual([]);
  });

  it("covers every file of a module (none deeper than the rule's globs)", () => {
    const deepest = sourceFiles(SRC)
      .map((file) => relative(SRC, file).split("/").length - 2)
      .reduce((a, b) => Math.max(a, b), 0);
    expect(deepest).toBeLessThan(MAX_DEPTH);
    const folders = readdirSync(SRC).filter((name) => statSync(join(SRC, name)).isDirectory());
    expect(folders.filter((name) => !MODULES.includes(name))).toEqual([]);
  });
});

// Lint sees static imports file by file; the graph sees every file of src/ (its root too,
// and dynamic imports): each module is a node ranked as in eslint.config.js, the files at
// the root of src/ one node above them all, an import from one into another an edge.
const SRC = resolve("src");
const ROOT = "(root)";
const rank = (node: string) => (node === ROOT ? MODULES.length : MODULES.indexOf(node));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(path) ? [path] : [];
  });
}

/** Every relative import of a file (static, type-only, re-export, side effect or dynamic). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const specs = text.matchAll(
    /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)["'](\.{1,2}\/[^"']*)["']/g,
  );
  return [...specs].map(([, spec]) => resolve(dirname(file), spec ?? ""));
}

/** src/a/b/c.ts → ["a", "b", "c.ts"]; null outside src. */
function partsOf(path: string): string[] | null {
  const rel = relative(SRC, path);
  return rel.startsWith("..") ? null : rel.split("/");
}

/** The module a path lies in (a module's folder itself too, `../bookings`); ROOT at src's root. */
const moduleOf = (path: string) => {
  const parts = partsOf(path);
  if (!parts) return null;
  const [first = ""] = parts;
  return parts.length > 1 || MODULES.includes(first) ? first : ROOT;
};

type Graph = Map<string, Map<string, string>>;

function addEdge(graph: Graph, from: string, to: string, file: string) {
  const edges = graph.get(from) ?? new Map<string, string>();
  if (!edges.has(to)) edges.set(to, relative(SRC, file));
  graph.set(from, edges);
}

/** Module → modules it imports from, with one importing file per edge (for the message). */
function moduleGraph(): Graph {
  const graph: Graph = new Map();
  for (const file of sourceFiles(SRC)) {
    const from = moduleOf(file);
    for (const target of importsOf(file)) {
      const to = moduleOf(target);
      if (from && to && to !== from) addEdge(graph, from, to, file);
    }
  }
  return graph;
}

/**
 * Within each module, its subfolders (and each file at its root, on its own) as nodes:
 * `calendar/rules`, `calendar/client.ts`; an `object/client.ts` is a node of its own.
 */
function subfolderGraph(): Graph {
  const graph: Graph = new Map();
  const nodeOf = (path: string) => {
    const parts = partsOf(path);
    if (!parts || parts.length < 2) return null;
    // An import without its extension names a file at the module's root.
    const [module, second = ""] = parts;
    // A Durable Object's client is its own node: the module's other folders call the object
    // through it, and it imports nothing of the object, so they do not form a cycle with it.
    if (second === "object" && /^client(\.ts)?$/.test(parts[2] ?? ""))
      return `${module}/object/client.ts`;
    const isFile = parts.length === 2 && !existsSync(join(SRC, module ?? "", second));
    return `${module}/${isFile && !second.endsWith(".ts") ? `${second}.ts` : second}`;
  };
  for (const file of sourceFiles(SRC)) {
    const from = nodeOf(file);
    for (const target of importsOf(file)) {
      const to = nodeOf(target);
      if (from && to && to !== from && to.split("/")[0] === from.split("/")[0]) {
        addEdge(graph, from, to, file);
      }
    }
  }
  return graph;
}

/** Edges from a node to one of equal or higher rank, as `from → to (file)`. */
function upwardEdges(graph: Graph): string[] {
  return [...graph].flatMap(([from, edges]) =>
    [...edges]
      .filter(([to]) => rank(to) >= rank(from))
      .map(([to, file]) => `${from} → ${to} (${file})`),
  );
}

/** Whether `to` can be reached from `from` along the graph's edges. */
function reaches(graph: Graph, from: string, to: string): boolean {
  const seen = new Set<string>();
  const stack = [from];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (node === to) return true;
    if (seen.has(node)) continue;
    seen.add(node);
    stack.push(...(graph.get(node)?.keys() ?? []));
  }
  return false;
}

/** Every edge that lies on a cycle (its target leads back to its source), as `from → to (file)`. */
function cycleEdges(graph: Graph): string[] {
  return [...graph].flatMap(([from, edges]) =>
    [...edges]
      .filter(([to]) => reaches(graph, to, from))
      .map(([to, file]) => `${from} → ${to} (${file})`),
  );
}

describe("modules of src/ import only downward", () => {
  it("sees the files at the root of src", () => {
    expect(moduleGraph().get(ROOT)?.has("app")).toBe(true);
  });

  it("has no upward edge between modules", () => {
    expect(upwardEdges(moduleGraph())).toEqual([]);
  });

  it("has no cycle between modules", () => {
    expect(cycleEdges(moduleGraph())).toEqual([]);
  });

  it("has no cycle between the subfolders of a module", () => {
    // Two files at a module's root importing each other are one concern split in two;
    // a cycle through a subfolder is two folders that cannot be read apart.
    const throughFolder = cycleEdges(subfolderGraph()).filter((edge) =>
      edge
        .split(" (")[0]
        ?.split(" → ")
        .some((node) => !node.endsWith(".ts")),
    );
    expect(throughFolder).toEqual([]);
  });

  it("finds an upward edge, and every edge of a cycle, also through a third module", () => {
    const graph: Graph = new Map([
      ["calendar", new Map([["bookings", "calendar/x.ts"]])],
      ["bookings", new Map([["waitlist", "bookings/y.ts"]])],
      ["waitlist", new Map([["calendar", "waitlist/z.ts"]])],
      ["app", new Map([[ROOT, "app/w.ts"]])],
    ]);
    expect(upwardEdges(graph)).toEqual([
      "calendar → bookings (calendar/x.ts)",
      "bookings → waitlist (bookings/y.ts)",
      "app → (root) (app/w.ts)",
    ]);
    expect(cycleEdges(graph)).toEqual([
      "calendar → bookings (calendar/x.ts)",
      "bookings → waitlist (bookings/y.ts)",
      "waitlist → calendar (waitlist/z.ts)",
    ]);
    graph.get("waitlist")?.delete("calendar");
    expect(cycleEdges(graph)).toEqual([]);
  });
});
