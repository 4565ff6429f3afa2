import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// The "SQL lives in queries/" rules of eslint.config.js, run on source lines as
// if they sat in a file of each folder (the files need not exist).
const eslint = new ESLint({ cwd: process.cwd() });

async function refusals(filePath: string, source: string) {
  const [result] = await eslint.lintText(`${source}\nexport { x };\n`, { filePath });
  const messages = result?.messages ?? [];
  const fatal = messages.find((m) => m.fatal || m.ruleId === null);
  if (fatal) throw new Error(`${filePath} was not linted: ${fatal.message}`);
  return messages
    .filter(
      (m) =>
        m.ruleId === "@typescript-eslint/no-restricted-imports" ||
        m.ruleId === "no-restricted-syntax",
    )
    .map((m) => m.message);
}

const drizzle = [
  'import { x } from "drizzle-orm";',
  'import type { x } from "drizzle-orm";',
  'import type { x } from "drizzle-orm/batch";',
  'import { x } from "drizzle-orm/sqlite-core";',
  'export { x } from "drizzle-orm";',
];

// Statements built on the drizzle handle, however the handle is reached.
const handle = [
  "const x = db.select().from(t);",
  "const x = db.selectDistinct().from(t);",
  "const x = scope.db.insert(t).values(row);",
  "const x = c.var.db.update(t).set(row);",
  "const x = this.db.delete(t);",
  "const x = await c.var.db\n  .insert(t)\n  .values(row)\n  .returning();",
];

const outside = [
  "src/app/app.ts",
  "src/app/middleware/fixture.ts",
  "src/platform/fixture.ts",
  "src/platform/rules/fixture.ts",
  "src/http/fixture.ts",
  "src/tenancy/http/admin/workspaces/fixture.ts",
  "src/catalogue/fixture.ts",
  "src/calendar/fixture.ts",
  "src/calendar/holds/fixture.ts",
  "src/calendar/planning/planner/fixture.ts",
  "src/calendar/object/fixture.ts",
  "src/messages/delivery/fixture.ts",
  "src/webhooks/http/webhooks/fixture.ts",
  "src/pos/fixture.ts",
  "src/bookings/fixture.ts",
  "src/bookings/change.ts",
  "src/bookings/ops/fixture.ts",
  "src/bookings/views/fixture.ts",
  "src/bookings/http/bookings/fixture.ts",
  "src/waitlist/rules/fixture.ts",
  "src/index.ts",
];

const widget = ["widget/fixture.ts", "widget/steps/fixture.tsx"];

// A module's queries/ and src/db are SQL's home; tests read D1 directly.
const allowed = [
  "src/db/fixture.ts",
  "src/db/queries/fixture.ts",
  "src/db/schema/fixture.ts",
  "src/calendar/queries/fixture.ts",
  "src/bookings/queries/fixture.ts",
  "src/waitlist/queries/deeper/fixture.ts",
  "test/helpers/fixture.ts",
];

describe("SQL lives in a module's queries/ or src/db (eslint.config.js)", () => {
  const imports = [...outside, ...widget].flatMap((file) =>
    drizzle.map((line) => [file, line] as const),
  );
  it.each(imports)("%s: %s fails lint", async (file, line) => {
    const found = await refusals(file, line);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/SQL lives in a module's queries\//);
  });

  const calls = outside.flatMap((file) => handle.map((line) => [file, line] as const));
  it.each(calls)("%s: %s fails lint", async (file, line) => {
    const found = await refusals(file, `declare const db, scope, c, t, row;\n${line}`);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/SQL lives in a module's queries\//);
  });

  it.each(allowed)("%s may import drizzle-orm and build statements", async (file) => {
    const source = 'import { x } from "drizzle-orm";\ndeclare const db;\ndb.select().from(x);';
    expect(await refusals(file, source)).toEqual([]);
  });

  it.each(outside)("%s may use a named builder and the Statement type of src/db", async (file) => {
    const depth = file.split("/").length - 2;
    const up = depth === 0 ? "./" : "../".repeat(depth);
    const source = `import type { x } from "${up}db/statement";\ndeclare const scope;\nscope.db.batch([]);\nnew Map().delete(1);`;
    expect(await refusals(file, source)).toEqual([]);
  });
});
