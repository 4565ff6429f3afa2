import { beforeAll, describe, expect, it } from "vitest";
import { rowCount } from "../helpers/db";
import { createWorkspace, type TestWorkspace } from "../helpers/factory";
import { ADMIN, admin, send } from "../helpers/http";

let ws: TestWorkspace;

beforeAll(async () => {
  ws = await createWorkspace();
});

const create = (body: Record<string, unknown>, workspaceId = ws.id) =>
  admin(`/workspaces/${workspaceId}/booking-statuses`, { method: "POST", body });

const count = () => rowCount("booking_statuses");

describe("POST /workspaces/{ws}/booking-statuses", () => {
  it("adds a status that the public list then shows after the defaults", async () => {
    const res = await create({ name: "No show", type: "no_show" });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: "No show",
      type: "no_show",
    });
    const list = await ws.api("/booking-statuses");
    expect(list.body.data.at(-1)).toEqual(res.body);
    expect(list.body.meta.total).toBe(6);
  });

  it("allows a second status of an existing type (the type is a category)", async () => {
    const res = await create({ name: "Confirmed by phone", type: "confirmed" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: "Confirmed by phone", type: "confirmed" });
  });

  it.each([
    ["missing name", { name: undefined }, "name"],
    ["blank name", { name: "  " }, "name"],
    ["name too long", { name: "x".repeat(101) }, "name"],
    ["missing type", { type: undefined }, "type"],
    ["upper-case type", { type: "NoShow" }, "type"],
    ["type with a space", { type: "no show" }, "type"],
    ["type starting with a digit", { type: "1st" }, "type"],
    ["type too long", { type: "x".repeat(33) }, "type"],
    ["type that is not a string", { type: 3 }, "type"],
  ])("rejects %s with 422 and writes nothing", async (_, change, field) => {
    const before = await count();
    const res = await create({ name: "Waiting", type: "waiting", ...change });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual([field]);
    expect(await count()).toBe(before);
  });

  it("answers 404 for an unknown workspace", async () => {
    const before = await count();
    const res = await create({ name: "Waiting", type: "waiting" }, crypto.randomUUID());
    expect(res.status).toBe(404);
    expect(await count()).toBe(before);
  });

  it.each([
    ["no token", {}],
    ["a wrong token", { authorization: "Bearer wrong" }],
  ])("answers 401 with %s and writes nothing", async (_, headers) => {
    const before = await count();
    const res = await send(`${ADMIN}/workspaces/${ws.id}/booking-statuses`, {
      method: "POST",
      body: { name: "Waiting", type: "waiting" },
      headers,
    });
    expect(res.status).toBe(401);
    expect(await count()).toBe(before);
  });
});
