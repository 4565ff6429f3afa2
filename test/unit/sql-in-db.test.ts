import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// The "SQL lives in src/db" rule in eslint.config.js, run on import lines as
// if they sat in a file of each folder (the files need not exist).
const eslint = new ESLint({ cwd: process.cwd() });

async function refusals(filePath: string, source: string) {
  const [result] = await eslint.lintText(`${source}\nexport { x };\n`, { filePath });
  const messages = result?.messages ?? [];
  const fatal = messages.find((m) => m.fatal || m.ruleId === null);
  if (fatal) throw new Error(`${filePath} was not linted: ${fatal.message}`);
  return messages
    .filter((m) => m.ruleId === "@typescript-eslint/no-restricted-imports")
    .map((m) => m.message);
}

const drizzle = [
  'import { x } from "drizzle-orm";',
  'import type { x } from "drizzle-orm";',
  'import type { x } from "drizzle-orm/batch";',
  'import { x } from "drizzle-orm/sqlite-core";',
  'export { x } from "drizzle-orm";',
];

const outside = [
  "src/app/app.ts",
  "src/middleware/fixture.ts",
  "src/lib/fixture.ts",
  "src/reservations/fixture.ts",
  "src/vouchers/fixture.ts",
  "src/goods/fixture.ts",
  "src/services/fixture.ts",
  "src/webhooks/fixture.ts",
  "src/calendar/fixture.ts",
  "src/durable-objects/fixture.ts",
  "src/bookings/fixture.ts",
  "src/bookings/change.ts",
  "src/bookings/write.ts",
  "src/bookings/ops/fixture.ts",
  "src/calendar/planning/planner/fixture.ts",
  "src/orders/fixture.ts",
  "src/changes/fixture.ts",
  "src/views/fixture.ts",
  "src/routes/public/bookings/fixture.ts",
  "widget/fixture.ts",
  "widget/steps/fixture.tsx",
];

// src/db is SQL's home; tests read D1 directly.
const allowed = [
  "src/db/fixture.ts",
  "src/db/queries/fixture.ts",
  "src/db/schema/fixture.ts",
  "test/helpers/fixture.ts",
];

describe("SQL lives in src/db (eslint.config.js)", () => {
  const cases = outside.flatMap((file) => drizzle.map((line) => [file, line] as const));
  it.each(cases)("%s: %s fails lint", async (file, line) => {
    const found = await refusals(file, line);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/SQL lives in src\/db/);
  });

  it.each(allowed)("%s may import drizzle-orm", async (file) => {
    expect(await refusals(file, 'import { x } from "drizzle-orm";')).toEqual([]);
  });

  it.each(outside)("%s may import the Statement type of src/db", async (file) => {
    const depth = file.split("/").length - 2;
    const up = depth === 0 ? "./" : "../".repeat(depth);
    const from = file.startsWith("widget/") ? "../".repeat(depth + 1) + "src/" : up;
    expect(await refusals(file, `import type { x } from "${from}db/statement";`)).toEqual([]);
  });
});
