import { beforeAll, describe, expect, it } from "vitest";
import { createLocation, createWorkspace, type TestWorkspace } from "../helpers/factory";
import { ADMIN, admin, send } from "../helpers/http";
import { everyShard } from "../helpers/every-shard";

const UNKNOWN = "00000000-0000-4000-8000-000000000000";

let ws: TestWorkspace;
let other: TestWorkspace;
beforeAll(async () => {
  ws = await createWorkspace();
  other = await createWorkspace();
});

const patch = (locationId: string, body: unknown, workspaceId = ws.id) =>
  admin(`/workspaces/${workspaceId}/locations/${locationId}`, { method: "PATCH", body });

const DEFAULTS = {
  cancellation_offset: 0,
  change_offset: 0,
  policy_text: null,
  cancellation_text: null,
  change_text: null,
  address: null,
  phone: null,
  phone_display: null,
  latitude: null,
  longitude: null,
};

describe("POST /workspaces/{ws}/locations", () => {
  it("creates a location with no policy limits by default", async () => {
    const res = await admin(`/workspaces/${ws.id}/locations`, {
      method: "POST",
      body: { name: "Old town", timezone: "Europe/Berlin" },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: "Old town",
      timezone: "Europe/Berlin",
      slot_step: 15,
      min_notice: 0,
      ...DEFAULTS,
    });
  });

  it("accepts the policy on create", async () => {
    const res = await admin(`/workspaces/${ws.id}/locations`, {
      method: "POST",
      body: {
        name: "Harbour",
        timezone: "Europe/Berlin",
        cancellation_offset: 1440,
        change_offset: 60,
        policy_text: "Be on time.",
        cancellation_text: "A day ahead.",
        change_text: "An hour ahead.",
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      cancellation_offset: 1440,
      change_offset: 60,
      policy_text: "Be on time.",
      cancellation_text: "A day ahead.",
      change_text: "An hour ahead.",
    });
  });
});

describe("PATCH /workspaces/{ws}/locations/{uuid}", () => {
  it("changes only the fields sent and shows them in the public list", async () => {
    const location = await createLocation(ws, { name: "Square", slot_step: 30, min_notice: 60 });
    const res = await patch(location.uuid, { cancellation_offset: 1440, policy_text: "Hi." });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      uuid: location.uuid,
      name: "Square",
      timezone: "Europe/Berlin",
      slot_step: 30,
      min_notice: 60,
      ...DEFAULTS,
      cancellation_offset: 1440,
      policy_text: "Hi.",
    });

    const again = await patch(location.uuid, { change_offset: 90, name: "Big square" });
    expect(again.body).toMatchObject({
      name: "Big square",
      cancellation_offset: 1440,
      change_offset: 90,
      policy_text: "Hi.",
      slot_step: 30,
      min_notice: 60,
    });

    const listed = await ws.api("/locations?per_page=100");
    expect(listed.body.data.find((l: { uuid: string }) => l.uuid === location.uuid)).toEqual(
      again.body,
    );
  });

  it("null clears a text; an empty body changes nothing", async () => {
    const location = await createLocation(ws);
    await patch(location.uuid, { policy_text: "Text", change_text: "Change" });
    const cleared = await patch(location.uuid, { policy_text: null });
    expect(cleared.body).toMatchObject({ policy_text: null, change_text: "Change" });
    const same = await patch(location.uuid, {});
    expect(same.status).toBe(200);
    expect(same.body).toEqual(cleared.body);
  });

  it("accepts the edges of the offsets: 0 and a year of minutes", async () => {
    const location = await createLocation(ws);
    const res = await patch(location.uuid, { cancellation_offset: 525_600, change_offset: 0 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ cancellation_offset: 525_600, change_offset: 0 });
  });

  it.each([
    ["a negative offset", { cancellation_offset: -1 }, "cancellation_offset"],
    ["an offset over a year", { change_offset: 525_601 }, "change_offset"],
    ["a fractional offset", { change_offset: 1.5 }, "change_offset"],
    ["an offset as a string", { cancellation_offset: "60" }, "cancellation_offset"],
    ["a text too long", { policy_text: "x".repeat(5001) }, "policy_text"],
    ["a text that is a number", { cancellation_text: 5 }, "cancellation_text"],
    ["an empty name", { name: " " }, "name"],
    ["a null name", { name: null }, "name"],
    ["an unknown time zone", { timezone: "Mars/Olympus" }, "timezone"],
    ["a slot step of 4", { slot_step: 4 }, "slot_step"],
  ])("refuses %s with 422 on that field and changes nothing", async (_, body, field) => {
    const location = await createLocation(ws);
    const res = await patch(location.uuid, { change_text: "ignored", ...body });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("validation_failed");
    expect(Object.keys(res.body.errors)).toEqual([field]);
    const row = await everyShard
      .prepare("select * from locations where id = ?")
      .bind(location.uuid)
      .first();
    expect(row).toMatchObject({ change_text: null, cancellation_offset: 0, change_offset: 0 });
  });

  it("a body that is not an object is 422", async () => {
    const location = await createLocation(ws);
    const res = await patch(location.uuid, [1]);
    expect(res.status).toBe(422);
  });

  it("an unknown location is 404, and so is another workspace's", async () => {
    const unknown = await patch(UNKNOWN, { change_offset: 10 });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe("not_found");

    const foreign = await createLocation(other);
    const res = await patch(foreign.uuid, { change_offset: 10 });
    expect(res.status).toBe(404);
    const row = await everyShard
      .prepare("select change_offset from locations where id = ?")
      .bind(foreign.uuid)
      .first();
    expect(row).toEqual({ change_offset: 0 });
  });

  it("an unknown workspace is 404; a location uuid that is not a uuid is 422", async () => {
    const location = await createLocation(ws);
    expect((await patch(location.uuid, { change_offset: 1 }, UNKNOWN)).status).toBe(404);
    expect((await patch("not-a-uuid", { change_offset: 1 })).status).toBe(422);
  });

  it("two PATCHes of different fields started together both land", async () => {
    const location = await createLocation(ws);
    const [a, b] = await Promise.all([
      patch(location.uuid, { cancellation_offset: 30, policy_text: "A" }),
      patch(location.uuid, { change_offset: 45, change_text: "B" }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const row = await everyShard
      .prepare(
        "select cancellation_offset, change_offset, policy_text, change_text from locations where id = ?",
      )
      .bind(location.uuid)
      .first();
    expect(row).toEqual({
      cancellation_offset: 30,
      change_offset: 45,
      policy_text: "A",
      change_text: "B",
    });
  });

  it("needs the admin token", async () => {
    const location = await createLocation(ws);
    const res = await send(`${ADMIN}/workspaces/${ws.id}/locations/${location.uuid}`, {
      method: "PATCH",
      body: { change_offset: 1 },
    });
    expect(res.status).toBe(401);
  });
});
