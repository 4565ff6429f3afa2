import { beforeAll, describe, expect, it } from "vitest";
import { rowCount } from "../helpers/db";
import { createWorkspace, type TestWorkspace } from "../helpers/factory";
import { ADMIN, admin, d1RoundTrips, send } from "../helpers/http";
import { everyShard } from "../helpers/every-shard";

let ws: TestWorkspace;

beforeAll(async () => {
  ws = await createWorkspace({ country: "DE" });
});

const create = (body: Record<string, unknown>, workspaceId = ws.id) =>
  admin(`/workspaces/${workspaceId}/customers`, { method: "POST", body });

const count = (workspaceId = ws.id) => rowCount("customers", workspaceId);

describe("POST /workspaces/{ws}/customers", () => {
  it("imports a customer with the phone in E.164 and the e-mail as given", async () => {
    const res = await create({
      first_name: "Anna",
      last_name: "Schmidt",
      middle_name: "Maria",
      phone: "030 1234567",
      email: "Anna.Schmidt@Example.com",
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      first_name: "Anna",
      last_name: "Schmidt",
      middle_name: "Maria",
      phone: "+49301234567",
      email: "Anna.Schmidt@Example.com",
    });
    expect(d1RoundTrips(res.headers)).toBeLessThanOrEqual(3);
    const row = await everyShard
      .prepare("select * from customers where id = ?")
      .bind(res.body.uuid)
      .first();
    expect(row).toMatchObject({
      workspace_id: ws.id,
      phone: "+49301234567",
      email: "Anna.Schmidt@Example.com",
      email_lower: "anna.schmidt@example.com",
    });
  });

  it("imports a customer with only a name and a phone", async () => {
    const res = await create({ first_name: "Ben", phone: "+49 151 23456789" });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      uuid: expect.any(String),
      first_name: "Ben",
      last_name: null,
      middle_name: null,
      phone: "+4915123456789",
      email: null,
    });
  });

  it("keeps the country of a number written with another country's prefix", async () => {
    const res = await create({ first_name: "Chloe", phone: "+44 20 7946 0958" });
    expect(res.status).toBe(201);
    expect(res.body.phone).toBe("+442079460958");
  });

  it.each(["+49 30 1234567", "0049301234567", "(030) 123 45 67"])(
    "rejects %s, the same phone in another form, with 422 on phone and writes nothing",
    async (phone) => {
      const before = await count();
      const res = await create({ first_name: "Dora", phone });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual({
        phone: ["A customer with the phone +49301234567 already exists."],
      });
      expect(await count()).toBe(before);
    },
  );

  it("lets only one of two concurrent imports of the same phone win", async () => {
    const body = { first_name: "Eve", phone: "0151 99999999" };
    const results = await Promise.all([create(body), create(body), create(body)]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 422, 422]);
    for (const r of results.filter((x) => x.status === 422)) {
      expect(Object.keys(r.body.errors)).toEqual(["phone"]);
    }
  });

  it("allows the same phone in another workspace", async () => {
    const other = await createWorkspace({ country: "DE" });
    const res = await create({ first_name: "Anna", phone: "030 1234567" }, other.id);
    expect(res.status).toBe(201);
    expect(res.body.phone).toBe("+49301234567");
  });

  it("reads national numbers with the workspace's country", async () => {
    const british = await createWorkspace({ country: "GB", currency: "GBP" });
    const res = await create({ first_name: "Finn", phone: "020 7946 0958" }, british.id);
    expect(res.status).toBe(201);
    expect(res.body.phone).toBe("+442079460958");
  });

  it.each([
    ["missing first_name", { first_name: undefined }, "first_name"],
    ["blank first_name", { first_name: " " }, "first_name"],
    ["blank last_name", { last_name: "" }, "last_name"],
    ["blank middle_name", { middle_name: "" }, "middle_name"],
    ["missing phone", { phone: undefined }, "phone"],
    ["garbage phone", { phone: "call me" }, "phone"],
    ["too short a phone", { phone: "123" }, "phone"],
    ["phone as a number", { phone: 301234567 }, "phone"],
    ["overlong phone", { phone: "1".repeat(65) }, "phone"],
    ["bad e-mail", { email: "not-an-email" }, "email"],
    ["e-mail with spaces", { email: " a@example.com" }, "email"],
  ])("rejects %s with 422 and writes nothing", async (_, change, field) => {
    const before = await count();
    const res = await create({ first_name: "Gina", phone: "0170 1234567", ...change });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual([field]);
    expect(await count()).toBe(before);
  });

  it("answers 404 for an unknown workspace and writes nothing", async () => {
    const id = crypto.randomUUID();
    const res = await create({ first_name: "Hans", phone: "030 7654321" }, id);
    expect(res.status).toBe(404);
    expect(await count(id)).toBe(0);
  });

  it.each([
    ["no token", {}],
    ["a wrong token", { authorization: "Bearer wrong" }],
  ])("answers 401 with %s and writes nothing", async (_, headers) => {
    const before = await count();
    const res = await send(`${ADMIN}/workspaces/${ws.id}/customers`, {
      method: "POST",
      body: { first_name: "Ida", phone: "030 7654321" },
      headers,
    });
    expect(res.status).toBe(401);
    expect(await count()).toBe(before);
  });
});
