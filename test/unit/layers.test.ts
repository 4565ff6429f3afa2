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
