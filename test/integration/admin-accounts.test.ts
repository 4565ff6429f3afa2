import { beforeAll, describe, expect, it } from "vitest";
import { rowCount } from "../helpers/db";
import { createLocation, createWorkspace, type TestWorkspace } from "../helpers/factory";
import { ADMIN, admin, d1RoundTrips, send } from "../helpers/http";
import { everyShard } from "../helpers/every-shard";

let ws: TestWorkspace;
let location: { uuid: string };
let foreignLocation: { uuid: string };

beforeAll(async () => {
  ws = await createWorkspace();
  location = await createLocation(ws);
  foreignLocation = await createLocation(await createWorkspace());
});

const create = (body: Record<string, unknown>, workspaceId = ws.id) =>
  admin(`/workspaces/${workspaceId}/accounts`, { method: "POST", body });

const valid = () => ({ location_uuid: location.uuid, name: "Till", type: "cash" });

const count = () => rowCount("accounts");

describe("POST /workspaces/{ws}/accounts", () => {
  it.each([
    ["cash", false],
    ["card", false],
    ["qr", true],
    ["online", true],
  ])("creates a %s account (requires_action %s) with its payment method", async (type, action) => {
    const res = await create({ ...valid(), name: `${type} account`, type });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      location_uuid: location.uuid,
      name: `${type} account`,
      type,
      requires_action: action,
      payment_method: `${type}_account`,
    });
    expect(d1RoundTrips(res.headers)).toBeLessThanOrEqual(3);
    const row = await everyShard
      .prepare("select * from accounts where id = ?")
      .bind(res.body.uuid)
      .first();
    expect(row).toMatchObject({ workspace_id: ws.id, location_id: location.uuid, balance: 0 });
  });

  it("accepts the location uuid in upper case", async () => {
    const res = await create({ ...valid(), location_uuid: location.uuid.toUpperCase() });
    expect(res.status).toBe(201);
    expect(res.body.location_uuid).toBe(location.uuid);
  });

  it.each([
    ["missing location", { location_uuid: undefined }, "location_uuid"],
    ["location that is not a uuid", { location_uuid: "nope" }, "location_uuid"],
    [
      "unknown location",
      { location_uuid: "00000000-0000-4000-8000-000000000000" },
      "location_uuid",
    ],
    ["another workspace's location", { location_uuid: "foreign" }, "location_uuid"],
    ["missing name", { name: undefined }, "name"],
    ["blank name", { name: "   " }, "name"],
    ["name too long", { name: "x".repeat(256) }, "name"],
    ["missing type", { type: undefined }, "type"],
    ["unknown type", { type: "crypto" }, "type"],
    ["type in upper case", { type: "CASH" }, "type"],
  ])("rejects %s with 422 and writes nothing", async (_, change, field) => {
    const before = await count();
    const body: Record<string, unknown> = { ...valid(), ...change };
    if (body.location_uuid === "foreign") body.location_uuid = foreignLocation.uuid;
    const res = await create(body);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("validation_failed");
    expect(Object.keys(res.body.errors)).toEqual([field]);
    expect(await count()).toBe(before);
  });

  it("answers 404 for an unknown workspace", async () => {
    const before = await count();
    const res = await create(valid(), crypto.randomUUID());
    expect(res.status).toBe(404);
    expect(await count()).toBe(before);
  });

  it.each([
    ["no token", () => ({})],
    ["a wrong token", () => ({ authorization: "Bearer wrong" })],
    ["the workspace's API key", () => ({ authorization: `Bearer ${ws.apiKey}` })],
  ])("answers 401 with %s and writes nothing", async (_, headers) => {
    const before = await count();
    const res = await send(`${ADMIN}/workspaces/${ws.id}/accounts`, {
      method: "POST",
      body: valid(),
      headers: headers(),
    });
    expect(res.status).toBe(401);
    expect(await count()).toBe(before);
  });
});
