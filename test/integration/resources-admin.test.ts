import { beforeAll, describe, expect, it } from "vitest";
import { rowCount } from "../helpers/db";
import {
  createLocation,
  createStaffer,
  createWorkspace,
  type TestWorkspace,
} from "../helpers/factory";
import { ADMIN, admin, d1RoundTrips, send } from "../helpers/http";
import { createPublishableKey } from "../helpers/keys";
import { createResource } from "../helpers/resources";

let ws: TestWorkspace;
let main: { uuid: string };
let branch: { uuid: string };

beforeAll(async () => {
  ws = await createWorkspace();
  main = await createLocation(ws, { name: "Main" });
  branch = await createLocation(ws, { name: "Branch" });
});

const create = (body: Record<string, unknown>, workspaceId = ws.id) =>
  admin(`/workspaces/${workspaceId}/resources`, { method: "POST", body });

describe("POST /workspaces/{ws}/resources", () => {
  it("creates a resource with the full shape", async () => {
    const res = await create({
      location_uuid: main.uuid,
      name: "Treatment room",
      kind: "room",
      quantity: 3,
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      uuid: expect.any(String),
      location_uuid: main.uuid,
      name: "Treatment room",
      kind: "room",
      quantity: 3,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
    });
  });

  it("defaults kind to other and quantity to 1, and trims the name", async () => {
    const res = await create({ location_uuid: branch.uuid, name: "  Laser  " });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      location_uuid: branch.uuid,
      name: "Laser",
      kind: "other",
      quantity: 1,
    });
  });

  it("accepts every kind and the quantity bounds 1 and 50", async () => {
    for (const kind of ["room", "chair", "equipment", "other"]) {
      expect((await create({ location_uuid: main.uuid, name: kind, kind })).status).toBe(201);
    }
    for (const quantity of [1, 50]) {
      const res = await create({ location_uuid: main.uuid, name: "Chairs", quantity });
      expect(res.status).toBe(201);
      expect(res.body.quantity).toBe(quantity);
    }
  });

  it.each([
    ["missing location", { location_uuid: undefined }, "location_uuid"],
    ["bad location uuid", { location_uuid: "nope" }, "location_uuid"],
    ["unknown location", { location_uuid: crypto.randomUUID() }, "location_uuid"],
    ["missing name", { name: undefined }, "name"],
    ["blank name", { name: "   " }, "name"],
    ["name over 200", { name: "x".repeat(201) }, "name"],
    ["unknown kind", { kind: "sofa" }, "kind"],
    ["quantity 0", { quantity: 0 }, "quantity"],
    ["quantity 51", { quantity: 51 }, "quantity"],
    ["fractional quantity", { quantity: 1.5 }, "quantity"],
  ])("rejects %s with 422 and writes nothing", async (_, change, field) => {
    const before = await rowCount("resources");
    const res = await create({ location_uuid: main.uuid, name: "Room", ...change });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toContain(field);
    expect(await rowCount("resources")).toBe(before);
  });

  it("refuses another workspace's location (422) and an unknown workspace (404)", async () => {
    const stranger = await createWorkspace();
    const theirs = await createLocation(stranger);
    const res = await create({ location_uuid: theirs.uuid, name: "Room" });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(["location_uuid"]);
    const unknown = await create({ location_uuid: main.uuid, name: "Room" }, crypto.randomUUID());
    expect(unknown.status).toBe(404);
  });

  it("needs the admin token", async () => {
    const res = await send(`${ADMIN}/workspaces/${ws.id}/resources`, {
      method: "POST",
      body: { location_uuid: main.uuid, name: "Room" },
    });
    expect(res.status).toBe(401);
    const list = await send(`${ADMIN}/workspaces/${ws.id}/resources`, {
      headers: { authorization: `Bearer ${ws.apiKey}` },
    });
    expect(list.status).toBe(401);
  });
});

describe("listing resources", () => {
  let own: TestWorkspace;
  let here: { uuid: string };
  let there: { uuid: string };
  const made: string[] = [];

  beforeAll(async () => {
    own = await createWorkspace();
    here = await createLocation(own, { name: "Here" });
    there = await createLocation(own, { name: "There" });
    for (let i = 0; i < 4; i++) {
      made.push(
        (await createResource(own, i < 3 ? here.uuid : there.uuid, { name: `R${i}` })).uuid,
      );
    }
  });

  it("admin: pages in creation order, filters by location, 404 for an unknown workspace", async () => {
    const page1 = await admin(`/workspaces/${own.id}/resources?per_page=3`);
    expect(page1.status).toBe(200);
    expect(page1.body.data.map((r: { uuid: string }) => r.uuid)).toEqual(made.slice(0, 3));
    expect(page1.body.meta).toMatchObject({ total: 4, per_page: 3, last_page: 2 });
    const page2 = await admin(`/workspaces/${own.id}/resources?per_page=3&page=2`);
    expect(page2.body.data.map((r: { uuid: string }) => r.uuid)).toEqual(made.slice(3));

    const filtered = await admin(`/workspaces/${own.id}/resources?location_uuid=${there.uuid}`);
    expect(filtered.body.data).toEqual([expect.objectContaining({ uuid: made[3] })]);
    expect(filtered.body.meta.total).toBe(1);

    expect((await admin(`/workspaces/${crypto.randomUUID()}/resources`)).status).toBe(404);
    expect((await admin(`/workspaces/${own.id}/resources?location_uuid=x`)).status).toBe(422);
    expect((await admin(`/workspaces/${own.id}/resources?per_page=101`)).status).toBe(422);
  });

  it("public GET /resources: the key's workspace only, filter and pages, in one D1 round trip", async () => {
    const all = await own.api("/resources");
    expect(all.status).toBe(200);
    expect(all.body.data.map((r: { uuid: string }) => r.uuid)).toEqual(made);
    expect(all.body.data[0]).toEqual({
      uuid: made[0],
      location_uuid: here.uuid,
      name: "R0",
      kind: "other",
      quantity: 1,
      created_at: expect.any(String),
    });

    const filtered = await own.api(`/resources?location_uuid=${here.uuid}&per_page=2&page=2`);
    // The isolate knows the workspace now: a read is one D1 round trip, the key check included.
    expect(d1RoundTrips(filtered.headers)).toBe(1);
    expect(filtered.body.data.map((r: { uuid: string }) => r.uuid)).toEqual([made[2]]);
    expect(filtered.body.meta).toMatchObject({ total: 3, current_page: 2, last_page: 2 });

    // Another workspace's key sees none of them, even when filtering by their location.
    const theirs = await ws.api(`/resources?location_uuid=${here.uuid}`);
    expect(theirs.body.data).toEqual([]);

    expect((await own.api("/resources?location_uuid=nope")).status).toBe(422);
    expect((await send("/api/public/v2/resources")).status).toBe(401);
  });

  it("a publishable key may read the list (the widget's catalogue)", async () => {
    const pk = await createPublishableKey(own, ["https://salon.example"]);
    const res = await pk.api("/resources");
    expect(res.status).toBe(200);
    expect(res.body.meta.total).toBe(4);
  });
});

describe("services with resource_uuids", () => {
  let room: { uuid: string };
  let chair: { uuid: string };

  beforeAll(async () => {
    await createStaffer(ws, [main.uuid]);
    room = await createResource(ws, main.uuid, { name: "Room A", kind: "room" });
    chair = await createResource(ws, main.uuid, { name: "Chair", kind: "chair", quantity: 2 });
  });

  const service = (body: Record<string, unknown>) =>
    ws.api("/services", {
      method: "POST",
      body: { name: "Facial", duration: 60, price: 5000, ...body },
    });

  it("stores them and shows them sorted on create, get and list; [] when none", async () => {
    const res = await service({ resource_uuids: [room.uuid, chair.uuid] });
    expect(res.status).toBe(201);
    const sorted = [room.uuid, chair.uuid].sort();
    expect(res.body.resource_uuids).toEqual(sorted);
    const got = await ws.api(`/services/${res.body.uuid}`);
    expect(got.body.resource_uuids).toEqual(sorted);
    expect(d1RoundTrips(got.headers)).toBe(1);
    const listed = await ws.api("/services?per_page=100");
    expect(d1RoundTrips(listed.headers)).toBe(1);
    const inList = listed.body.data.find((s: { uuid: string }) => s.uuid === res.body.uuid);
    expect(inList.resource_uuids).toEqual(sorted);

    const plain = await service({});
    expect(plain.status).toBe(201);
    expect(plain.body.resource_uuids).toEqual([]);
    expect((await ws.api(`/services/${plain.body.uuid}`)).body.resource_uuids).toEqual([]);
  });

  it("refuses an unknown or another workspace's resource on its index, writing nothing", async () => {
    const stranger = await createWorkspace();
    const theirs = await createResource(stranger, (await createLocation(stranger)).uuid);
    const before = await rowCount("services");
    const links = await rowCount("service_resources");
    const res = await service({ resource_uuids: [room.uuid, crypto.randomUUID(), theirs.uuid] });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(["resource_uuids.1", "resource_uuids.2"]);
    expect(await rowCount("services")).toBe(before);
    expect(await rowCount("service_resources")).toBe(links);
  });

  it("allows 10 resources and refuses 11 or a duplicate", async () => {
    const ten = [];
    for (let i = 0; i < 10; i++) ten.push((await createResource(ws, main.uuid)).uuid);
    const ok = await service({ resource_uuids: ten });
    expect(ok.status).toBe(201);
    expect(ok.body.resource_uuids).toEqual([...ten].sort());

    const before = await rowCount("services");
    const eleven = await service({ resource_uuids: [...ten, room.uuid] });
    expect(eleven.status).toBe(422);
    expect(Object.keys(eleven.body.errors)).toEqual(["resource_uuids"]);
    const twice = await service({ resource_uuids: [room.uuid, chair.uuid, room.uuid] });
    expect(twice.status).toBe(422);
    expect(Object.keys(twice.body.errors)).toEqual(["resource_uuids.2"]);
    expect(await rowCount("services")).toBe(before);
  });
});
