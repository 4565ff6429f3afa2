import { beforeAll, describe, expect, it } from "vitest";
import { createWorkspace, type TestWorkspace } from "../helpers/factory";
import { admin, d1RoundTrips, PUBLIC, send } from "../helpers/http";

let ws: TestWorkspace;
let stranger: TestWorkspace;

const DEFAULTS = [
  { name: "New", type: "new" },
  { name: "Confirmed", type: "confirmed" },
  { name: "In progress", type: "inprogress" },
  { name: "Completed", type: "completed" },
  { name: "Canceled", type: "canceled" },
];

async function addStatus(workspaceId: string, name: string, type: string) {
  const res = await admin(`/workspaces/${workspaceId}/booking-statuses`, {
    method: "POST",
    body: { name, type },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { uuid: string; name: string; type: string };
}

beforeAll(async () => {
  ws = await createWorkspace();
  stranger = await createWorkspace();
});

describe("GET /booking-statuses", () => {
  it("lists the default statuses of a new workspace in order with the full shape", async () => {
    const res = await ws.api("/booking-statuses");
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(DEFAULTS.map((s) => ({ uuid: expect.any(String), ...s })));
    expect(res.body.meta).toMatchObject({ total: 5, current_page: 1, last_page: 1 });
  });

  it("never shows another workspace's statuses", async () => {
    const theirs = await addStatus(stranger.id, "Their status", "theirs");
    const mine = await ws.api("/booking-statuses?per_page=100");
    const ids = mine.body.data.map((s: { uuid: string }) => s.uuid);
    expect(ids).not.toContain(theirs.uuid);
    const theirList = await stranger.api("/booking-statuses?per_page=100");
    const theirIds = theirList.body.data.map((s: { uuid: string }) => s.uuid);
    expect(theirIds).toContain(theirs.uuid);
    expect(ids.filter((id: string) => theirIds.includes(id))).toEqual([]);
  });

  it("pages through 55 statuses within the D1 budget", async () => {
    const added: string[] = [];
    for (let i = 0; i < 50; i++) {
      added.push((await addStatus(ws.id, `Custom ${i}`, `custom_${i}`)).uuid);
    }
    const first = await ws.api("/booking-statuses?per_page=30");
    expect(first.status).toBe(200);
    expect(d1RoundTrips(first.headers)).toBeLessThanOrEqual(3);
    const second = await ws.api("/booking-statuses?per_page=30&page=2");
    expect(d1RoundTrips(second.headers)).toBeLessThanOrEqual(3);
    const all = [...first.body.data, ...second.body.data];
    expect(all).toHaveLength(55);
    expect(all.slice(5).map((s: { uuid: string }) => s.uuid)).toEqual(added);
    expect(all[54]).toEqual({ uuid: added[49], name: "Custom 49", type: "custom_49" });
    expect(second.body.meta).toMatchObject({ total: 55, from: 31, to: 55, last_page: 2 });
  });

  it("rejects a bad page size with 422", async () => {
    const res = await ws.api("/booking-statuses?per_page=0");
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(["per_page"]);
  });

  it("answers 401 with another workspace's key", async () => {
    const res = await send(`${PUBLIC}/booking-statuses`, {
      headers: { authorization: `Bearer ${stranger.apiKey}`, workspace: ws.id },
    });
    expect(res.status).toBe(401);
  });
});
