import { beforeAll, describe, expect, it } from "vitest";
import { rowCount } from "../helpers/db";
import { createWorkspace, type TestWorkspace } from "../helpers/factory";
import { ADMIN, admin, d1RoundTrips, send } from "../helpers/http";
import { everyShard } from "../helpers/every-shard";

let ws: TestWorkspace;

beforeAll(async () => {
  ws = await createWorkspace();
});

const create = (body: Record<string, unknown>, workspaceId = ws.id) =>
  admin(`/workspaces/${workspaceId}/promocodes`, { method: "POST", body });

const count = (workspaceId = ws.id) => rowCount("promocodes", workspaceId);

describe("POST /workspaces/{ws}/promocodes", () => {
  it("creates a percentage code, stored as given", async () => {
    const res = await create({ code: "Summer10", discount_percent: 10 });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      code: "Summer10",
      discount_percent: 10,
      discount_amount: null,
      max_uses: null,
    });
    expect(d1RoundTrips(res.headers)).toBeLessThanOrEqual(3);
    const row = await everyShard
      .prepare("select * from promocodes where id = ?")
      .bind(res.body.uuid)
      .first();
    expect(row).toMatchObject({ workspace_id: ws.id, code: "Summer10", discount_percent: 10 });
  });

  it("creates a fixed-amount code with a usage limit", async () => {
    const res = await create({ code: "WELCOME-5_off", discount_amount: 500, max_uses: 3 });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      uuid: expect.any(String),
      code: "WELCOME-5_off",
      discount_percent: null,
      discount_amount: 500,
      max_uses: 3,
    });
  });

  it("trims surrounding spaces and accepts 100 %", async () => {
    const res = await create({ code: "  FREE  ", discount_percent: 100 });
    expect(res.status).toBe(201);
    expect(res.body.code).toBe("FREE");
  });

  it.each(["Summer10", "SUMMER10", "summer10"])(
    "rejects %s as a duplicate regardless of case with 422 and writes nothing",
    async (code) => {
      const before = await count();
      const res = await create({ code, discount_amount: 100 });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual({ code: ["This code already exists in the workspace."] });
      expect(await count()).toBe(before);
    },
  );

  it("keeps codes apart between workspaces", async () => {
    const other = await createWorkspace();
    const res = await create({ code: "summer10", discount_percent: 15 }, other.id);
    expect(res.status).toBe(201);
  });

  it("lets exactly one of concurrent requests for the same code win", async () => {
    const spellings = ["RACE", "race", "Race", "rAcE", "RACE"];
    const results = await Promise.all(
      spellings.map((code) => create({ code, discount_percent: 5 })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 422, 422, 422, 422]);
    const rows = await everyShard
      .prepare(
        "select count(*) as n from promocodes where workspace_id = ? and lower(code) = 'race'",
      )
      .bind(ws.id)
      .first<{ n: number }>();
    expect(rows?.n).toBe(1);
  });

  it.each([
    ["missing code", { code: undefined }, ["code"]],
    ["empty code", { code: "" }, ["code"]],
    ["code with a space inside", { code: "SUMMER 10" }, ["code"]],
    ["code with other characters", { code: "SÜMMER" }, ["code"]],
    ["code too long", { code: "X".repeat(65) }, ["code"]],
    ["neither discount", { discount_percent: undefined }, ["discount_percent", "discount_amount"]],
    ["both discounts", { discount_amount: 100 }, ["discount_percent", "discount_amount"]],
    ["percent 0", { discount_percent: 0 }, ["discount_percent"]],
    ["percent over 100", { discount_percent: 101 }, ["discount_percent"]],
    ["fractional percent", { discount_percent: 12.5 }, ["discount_percent"]],
    ["max_uses 0", { max_uses: 0 }, ["max_uses"]],
    ["fractional max_uses", { max_uses: 1.5 }, ["max_uses"]],
  ])("rejects %s with 422 and writes nothing", async (_, change, fields) => {
    const before = await count();
    const res = await create({ code: "NEWCODE", discount_percent: 20, ...change });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(fields);
    expect(await count()).toBe(before);
  });

  it.each([
    ["amount 0", { discount_amount: 0 }],
    ["negative amount", { discount_amount: -5 }],
    ["fractional amount", { discount_amount: 1.5 }],
  ])("rejects %s with 422 on discount_amount", async (_, change) => {
    const res = await create({ code: "AMOUNT", ...change });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(["discount_amount"]);
  });

  it("answers 404 for an unknown workspace and writes nothing", async () => {
    const id = crypto.randomUUID();
    const res = await create({ code: "GHOST", discount_percent: 10 }, id);
    expect(res.status).toBe(404);
    expect(res.body.message).toBe("Workspace not found.");
    expect(await count(id)).toBe(0);
  });

  it.each([
    ["no token", {}],
    ["a wrong token", { authorization: "Bearer wrong" }],
  ])("answers 401 with %s and writes nothing", async (_, headers) => {
    const before = await count();
    const res = await send(`${ADMIN}/workspaces/${ws.id}/promocodes`, {
      method: "POST",
      body: { code: "NOPE", discount_percent: 10 },
      headers,
    });
    expect(res.status).toBe(401);
    expect(await count()).toBe(before);
  });
});
