import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// The layer rule in eslint.config.js, run on import lines as if they sat in a
// file of each layer (the files need not exist).
const eslint = new ESLint({ cwd: process.cwd() });

async function problems(filePath: string, source: string) {
  const [result] = await eslint.lintText(`${source}\nexport { x };\n`, { filePath });
  const messages = result?.messages ?? [];
  const fatal = messages.find((m) => m.fatal || m.ruleId === null);
  if (fatal) throw new Error(`${filePath} was not linted: ${fatal.message}`);
  return messages.filter((m) => m.ruleId === "no-restricted-imports").map((m) => m.message);
}

const upward: [string, string][] = [
  ["src/domain/pricing/fixture.ts", 'import { x } from "../../db/schema";'],
  ["src/domain/fixture.ts", 'import { x } from "../routes/public/bookings/schema";'],
  ["src/domain/fixture.ts", 'import { x } from "../views/booking";'],
  ["src/domain/fixture.ts", 'import { x } from "hono";'],
  ["src/domain/fixture.ts", 'import { x } from "@hono/zod-openapi";'],
  ["src/domain/fixture.ts", 'import { x } from "drizzle-orm";'],
  ["src/domain/fixture.ts", 'import { x } from "cloudflare:workers";'],
  ["src/db/queries/fixture.ts", 'import type { x } from "../../routes/public/bookings/render";'],
  ["src/db/queries/fixture.ts", 'import { x } from "../../bookings/change";'],
  ["src/db/fixture.ts", 'import { x } from "../views/booking";'],
  ["src/views/fixture.ts", 'import { x } from "../routes/public/orders/schema";'],
  ["src/views/fixture.ts", 'import { x } from "../orders/pay";'],
  ["src/bookings/ops/fixture.ts", 'import { x } from "../../routes/public/bookings/render";'],
  ["src/orders/fixture.ts", 'import { x } from "../middleware/auth";'],
  ["src/webhooks/fixture.ts", 'export { x } from "../routes/public/webhooks/schema";'],
  ["src/calendar/fixture.ts", 'import { x } from "../app";'],
  ["src/domain/availability/fixture.ts", 'import { x } from "../../webhooks/consumer";'],
  ["src/goods/fixture.ts", 'import { x } from "../routes/public/goods/schema";'],
  ["src/services/fixture.ts", 'import { x } from "hono";'],
  ["src/blocked-spots/fixture.ts", 'import { x } from "../middleware/auth";'],
  ["src/db/fixture.ts", 'import { x } from "../blocked-spots/create";'],
  ["src/routes/public/bookings/fixture.ts", 'import { x } from "drizzle-orm";'],
  ["src/routes/public/fixture.ts", 'import type { x } from "drizzle-orm/batch";'],
  ["src/bookings/fixture.ts", 'import type { x } from "hono";'],
  ["src/orders/fixture.ts", 'import { x } from "hono/factory";'],
  ["src/db/queries/fixture.ts", 'import type { x } from "hono";'],
];

const downward: [string, string][] = [
  ["src/domain/availability/fixture.ts", 'import { x } from "./calendar";'],
  ["src/domain/pricing/fixture.ts", 'import { x } from "../money";'],
  ["src/domain/pricing/fixture.ts", 'import { x } from "../webhooks/backoff";'],
  ["src/domain/fixture.ts", 'import { x } from "./webhooks/backoff";'],
  ["src/db/queries/fixture.ts", 'import { x } from "../../domain/pricing";'],
  ["src/views/fixture.ts", 'import type { x } from "../db/queries/bookings";'],
  ["src/bookings/ops/fixture.ts", 'import { x } from "../../views/booking";'],
  ["src/orders/fixture.ts", 'import { x } from "drizzle-orm";'],
  ["src/views/fixture.ts", 'import { x } from "@hono/zod-openapi";'],
  ["src/routes/public/bookings/fixture.ts", 'import type { x } from "hono";'],
  ["src/routes/public/bookings/fixture.ts", 'import { x } from "../../../bookings/change";'],
];

describe("layer boundaries (eslint.config.js)", () => {
  it.each(upward)("%s: %s fails lint", async (file, line) => {
    const found = await problems(file, line);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/layers in eslint\.config\.js/);
  });

  it.each(downward)("%s: %s passes", async (file, line) => {
    expect(await problems(file, line)).toEqual([]);
  });
});

// Layers say which way imports go between layers; inside the use-case layer
// (and any other) two folders must not import each other, even through a
// third: each top-level folder of src/ is a node, an import from one into
// another an edge, and the graph has no cycle.
const SRC = resolve("src");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return path.endsWith(".ts") ? [path] : [];
  });
}

/** The top-level folder of src/ a path lies in; null for a file at the root (app.ts, env.ts …). */
function folderOf(path: string): string | null {
  const parts = relative(SRC, path).split("/");
  return parts.length > 1 ? (parts[0] ?? null) : null;
}

/** Folder → folders it imports from, with one importing file per edge (for the message). */
function folderGraph(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const file of sourceFiles(SRC)) {
    const from = folderOf(file);
    if (!from) continue;
    const text = readFileSync(file, "utf8");
    for (const [, spec] of text.matchAll(/(?:import|export)\b[^;]*?\bfrom\s+"(\.[^"]+)"/g)) {
      const to = folderOf(resolve(dirname(file), spec ?? ""));
      if (!to || to === from) continue;
      const edges = graph.get(from) ?? new Map<string, string>();
      if (!edges.has(to)) edges.set(to, relative(SRC, file));
      graph.set(from, edges);
    }
  }
  return graph;
}

/** Whether `to` can be reached from `from` along the graph's edges. */
function reaches(graph: Map<string, Map<string, string>>, from: string, to: string): boolean {
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

/** Every edge that lies on a cycle (its target leads back to its source), as `file → folder`. */
function cycleEdges(graph: Map<string, Map<string, string>>): string[] {
  return [...graph].flatMap(([from, edges]) =>
    [...edges]
      .filter(([to]) => reaches(graph, to, from))
      .map(([to, file]) => `${from} → ${to} (${file})`),
  );
}

describe("folders of src/ import each other without a cycle", () => {
  it("has no cycle", () => {
    expect(cycleEdges(folderGraph())).toEqual([]);
  });

  it("finds every edge of a cycle, also through a third folder", () => {
    const graph = new Map([
      ["a", new Map([["b", "a/x.ts"]])],
      ["b", new Map([["c", "b/y.ts"]])],
      ["c", new Map([["a", "c/z.ts"]])],
      ["d", new Map([["a", "d/w.ts"]])],
    ]);
    expect(cycleEdges(graph)).toEqual(["a → b (a/x.ts)", "b → c (b/y.ts)", "c → a (c/z.ts)"]);
    graph.get("c")?.delete("a");
    expect(cycleEdges(graph)).toEqual([]);
  });
});
