import { beforeAll, describe, expect, it } from "vitest";
import { rowCount } from "../helpers/db";
import { createWorkspace, type TestWorkspace } from "../helpers/factory";
import { ADMIN, admin, send } from "../helpers/http";
import { everyShard } from "../helpers/every-shard";

let ws: TestWorkspace;

beforeAll(async () => {
  ws = await createWorkspace();
});

const create = (body: Record<string, unknown>, workspaceId = ws.id) =>
  admin(`/workspaces/${workspaceId}/voucher-templates`, { method: "POST", body });

const count = () => rowCount("voucher_templates");

describe("POST /workspaces/{ws}/voucher-templates", () => {
  it("creates a template with its price in minor units", async () => {
    const res = await create({ name: "Gift card 50", price: 5000 });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: "Gift card 50",
      price: 5000,
    });
    const row = await everyShard
      .prepare("select * from voucher_templates where id = ?")
      .bind(res.body.uuid)
      .first();
    expect(row).toMatchObject({ workspace_id: ws.id, name: "Gift card 50", price: 5000 });
  });

  it("accepts a free voucher (price 0)", async () => {
    const res = await create({ name: "Free trim", price: 0 });
    expect(res.status).toBe(201);
    expect(res.body.price).toBe(0);
  });

  it.each([
    ["missing name", { name: undefined }, "name"],
    ["blank name", { name: "" }, "name"],
    ["missing price", { price: undefined }, "price"],
    ["negative price", { price: -1 }, "price"],
    ["fractional price", { price: 10.5 }, "price"],
    ["price as a string", { price: "5000" }, "price"],
  ])("rejects %s with 422 and writes nothing", async (_, change, field) => {
    const before = await count();
    const res = await create({ name: "Gift card", price: 1000, ...change });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual([field]);
    expect(await count()).toBe(before);
  });

  it("answers 404 for an unknown workspace", async () => {
    const before = await count();
    const res = await create({ name: "Gift card", price: 1000 }, crypto.randomUUID());
    expect(res.status).toBe(404);
    expect(await count()).toBe(before);
  });

  it.each([
    ["no token", {}],
    ["a wrong token", { authorization: "Bearer wrong" }],
  ])("answers 401 with %s and writes nothing", async (_, headers) => {
    const before = await count();
    const res = await send(`${ADMIN}/workspaces/${ws.id}/voucher-templates`, {
      method: "POST",
      body: { name: "Gift card", price: 1000 },
      headers,
    });
    expect(res.status).toBe(401);
    expect(await count()).toBe(before);
  });
});
