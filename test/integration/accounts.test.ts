import { beforeAll, describe, expect, it } from "vitest";
import { createLocation, createWorkspace, type TestWorkspace } from "../helpers/factory";
import { admin, d1RoundTrips, PUBLIC, send } from "../helpers/http";

let ws: TestWorkspace;
let main: { uuid: string };
let annex: { uuid: string };
const created: { uuid: string; location_uuid: string; name: string }[] = [];

const TYPES = ["cash", "card", "qr", "online"] as const;

async function createAccount(workspaceId: string, locationId: string, name: string, type: string) {
  const res = await admin(`/workspaces/${workspaceId}/accounts`, {
    method: "POST",
    body: { location_uuid: locationId, name, type },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

beforeAll(async () => {
  ws = await createWorkspace();
  main = await createLocation(ws, { name: "Main" });
  annex = await createLocation(ws, { name: "Annex" });
  // 52 accounts: every fourth in the annex, types cycling.
  for (let i = 0; i < 52; i++) {
    const location = i % 4 === 3 ? annex : main;
    const name = `Account ${String(i).padStart(2, "0")}`;
    created.push(await createAccount(ws.id, location.uuid, name, TYPES[i % 4] ?? "cash"));
  }
  // Another workspace's accounts must never show up.
  const stranger = await createWorkspace();
  const theirs = await createLocation(stranger);
  await createAccount(stranger.id, theirs.uuid, "Their till", "cash");
});

describe("GET /accounts", () => {
  it("lists the accounts in creation order with the full shape", async () => {
    const res = await ws.api("/accounts");
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(15);
    // Each location came with its online account, the oldest of its accounts.
    expect(res.body.data.slice(0, 2)).toEqual(
      [main, annex].map((l) => ({
        uuid: expect.any(String),
        location_uuid: l.uuid,
        name: "Online",
        type: "online",
        requires_action: true,
        payment_method: "online_account",
      })),
    );
    expect(res.body.data[2]).toEqual({
      uuid: created[0]?.uuid,
      location_uuid: main.uuid,
      name: "Account 00",
      type: "cash",
      requires_action: false,
      payment_method: "cash_account",
    });
    expect(res.body.data[4]).toEqual({
      uuid: created[2]?.uuid,
      location_uuid: main.uuid,
      name: "Account 02",
      type: "qr",
      requires_action: true,
      payment_method: "qr_account",
    });
    expect(res.body.meta).toMatchObject({ total: 54, per_page: 15, last_page: 4 });
  });

  it("walks all 54 accounts in pages within the D1 budget, none of another workspace", async () => {
    const seen: string[] = [];
    for (let page = 1; page <= 2; page++) {
      const res = await ws.api(`/accounts?per_page=50&page=${page}`);
      expect(res.status).toBe(200);
      expect(d1RoundTrips(res.headers)).toBeLessThanOrEqual(3);
      seen.push(...res.body.data.map((a: { uuid: string }) => a.uuid));
    }
    expect(seen.slice(2)).toEqual(created.map((a) => a.uuid));
    expect(seen).toHaveLength(54);
  });

  it("filters by location", async () => {
    const res = await ws.api(`/accounts?per_page=100&location_uuid=${annex.uuid}`);
    expect(res.status).toBe(200);
    expect(d1RoundTrips(res.headers)).toBeLessThanOrEqual(3);
    const expected = created.filter((a) => a.location_uuid === annex.uuid);
    expect(expected).toHaveLength(13);
    // The annex's online account first, then the 13 made for it.
    expect(res.body.data[0]).toMatchObject({ location_uuid: annex.uuid, type: "online" });
    expect(res.body.data.slice(1).map((a: { uuid: string }) => a.uuid)).toEqual(
      expected.map((a) => a.uuid),
    );
    expect(res.body.meta.total).toBe(14);
    expect(res.body.links.first).toContain(`location_uuid=${annex.uuid}`);
  });

  it("gives an empty page for an unknown or another workspace's location", async () => {
    const stranger = await createWorkspace();
    const theirs = await createLocation(stranger);
    await createAccount(stranger.id, theirs.uuid, "Their card", "card");
    for (const id of [crypto.randomUUID(), theirs.uuid]) {
      const res = await ws.api(`/accounts?location_uuid=${id}`);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([]);
      expect(res.body.meta.total).toBe(0);
    }
  });

  it("shows a workspace only its own accounts", async () => {
    const empty = await createWorkspace();
    const res = await empty.api("/accounts");
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
  });

  it.each([
    ["location_uuid=nope", "location_uuid"],
    ["per_page=101", "per_page"],
    ["page=0", "page"],
  ])("rejects %s with 422", async (query, field) => {
    const res = await ws.api(`/accounts?${query}`);
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual([field]);
  });

  it("is described in the public API document", async () => {
    const res = await send(`${PUBLIC}/openapi.json`);
    expect(res.body.paths["/accounts"].get.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: "location_uuid", in: "query" })]),
    );
    expect(res.body.paths).toHaveProperty("/booking-statuses");
    expect(res.body.components.schemas.Account.required).toEqual(
      expect.arrayContaining(["requires_action", "payment_method"]),
    );
  });

  it("answers 401 without an API key", async () => {
    const res = await send(`${PUBLIC}/accounts`, { headers: { workspace: ws.id } });
    expect(res.status).toBe(401);
  });
});
