import { beforeAll, describe, expect, it } from "vitest";
import { createLocation, createWorkspace, type TestWorkspace } from "../helpers/factory";
import { admin } from "../helpers/http";
import { everyShard } from "../helpers/every-shard";

let ws: TestWorkspace;
beforeAll(async () => {
  ws = await createWorkspace();
});

const create = (body: Record<string, unknown>) =>
  admin(`/workspaces/${ws.id}/locations`, {
    method: "POST",
    body: { name: "Mitte", timezone: "Europe/Berlin", ...body },
  });
const patch = (locationId: string, body: unknown) =>
  admin(`/workspaces/${ws.id}/locations/${locationId}`, { method: "PATCH", body });
const stored = (locationId: string) =>
  everyShard
    .prepare("select latitude, longitude, name from locations where id = ?")
    .bind(locationId)
    .first();
const listed = async (locationId: string) => {
  const res = await ws.api("/locations?per_page=100");
  expect(res.status).toBe(200);
  return res.body.data.find((l: { uuid: string }) => l.uuid === locationId);
};

describe("location coordinates", () => {
  it("are created with the location and shown by the management and public APIs", async () => {
    const res = await create({ latitude: 52.520008, longitude: 13.404954 });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ latitude: 52.520008, longitude: 13.404954 });
    expect(await stored(res.body.uuid)).toMatchObject({
      latitude: 52.520008,
      longitude: 13.404954,
    });
    expect(await listed(res.body.uuid)).toMatchObject({
      latitude: 52.520008,
      longitude: 13.404954,
    });
  });

  it("are null when never set", async () => {
    const location = await createLocation(ws);
    expect(await listed(location.uuid)).toMatchObject({ latitude: null, longitude: null });
  });

  it("are set, changed and cleared together by PATCH; other fields leave them", async () => {
    const location = await createLocation(ws);
    const set = await patch(location.uuid, { latitude: -33.8688, longitude: 151.2093 });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toMatchObject({ latitude: -33.8688, longitude: 151.2093 });
    const renamed = await patch(location.uuid, { name: "Harbour" });
    expect(renamed.body).toMatchObject({ latitude: -33.8688, longitude: 151.2093 });
    const edges = await patch(location.uuid, { latitude: -90, longitude: 180 });
    expect(edges.body).toMatchObject({ latitude: -90, longitude: 180 });
    const cleared = await patch(location.uuid, { latitude: null, longitude: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ latitude: null, longitude: null });
    expect(await stored(location.uuid)).toMatchObject({ latitude: null, longitude: null });
  });

  it.each([
    ["a latitude over 90", { latitude: 90.5, longitude: 0 }, "latitude"],
    ["a latitude under -90", { latitude: -91, longitude: 0 }, "latitude"],
    ["a longitude over 180", { latitude: 0, longitude: 180.01 }, "longitude"],
    ["a longitude under -180", { latitude: 0, longitude: -181 }, "longitude"],
    ["a latitude as a string", { latitude: "52.5", longitude: 13.4 }, "latitude"],
    ["a latitude without longitude", { latitude: 52.5 }, "longitude"],
    ["a longitude without latitude", { longitude: 13.4 }, "latitude"],
    ["a latitude with a null longitude", { latitude: 52.5, longitude: null }, "longitude"],
    ["a null latitude with a longitude", { latitude: null, longitude: 13.4 }, "latitude"],
    ["a null latitude alone", { latitude: null }, "longitude"],
  ])("PATCH refuses %s with 422 on that field and changes nothing", async (_, body, field) => {
    const location = await createLocation(ws);
    await patch(location.uuid, { latitude: 1, longitude: 2 });
    const res = await patch(location.uuid, { name: "ignored", ...body });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("validation_failed");
    expect(Object.keys(res.body.errors)).toEqual([field]);
    expect(await stored(location.uuid)).toMatchObject({
      latitude: 1,
      longitude: 2,
      name: "Main street",
    });
  });

  it("POST refuses half a pair with 422 and creates nothing", async () => {
    const name = `Half ${crypto.randomUUID()}`;
    const res = await create({ name, latitude: 52.5 });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(["longitude"]);
    const rows = await everyShard
      .prepare("select count(*) as n from locations where name = ?")
      .bind(name)
      .first();
    expect(rows).toMatchObject({ n: 0 });
  });
});
