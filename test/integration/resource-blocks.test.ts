import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { calendarFor } from "../../src/calendar/client";
import { unitCalendarId } from "../../src/calendar/ids";
import { rowCount } from "../helpers/db";
import { createLocation, createWorkspace, type TestWorkspace } from "../helpers/factory";
import { ADMIN, admin, d1RoundTrips, send } from "../helpers/http";
import { createResource, type TestResource } from "../helpers/resources";
import { everyShard } from "../helpers/every-shard";

let ws: TestWorkspace;
let location: { uuid: string };

beforeAll(async () => {
  ws = await createWorkspace();
  location = await createLocation(ws);
});

const block = (resourceId: string, body: Record<string, unknown>, workspaceId = ws.id) =>
  admin(`/workspaces/${workspaceId}/resources/${resourceId}/blocked-spots`, {
    method: "POST",
    body,
  });

const auditOf = (resourceId: string, workspaceId = ws.id) =>
  admin(`/workspaces/${workspaceId}/resources/${resourceId}/calendar`);

/** Every unit's calendar equals D1, once the confirms (after the response) have landed. */
async function expectUnitsInSync(resource: TestResource) {
  await vi.waitFor(
    async () => {
      const res = await auditOf(resource.uuid);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        in_sync: true,
        units: Array.from({ length: resource.quantity }, (_, i) => ({
          unit: i + 1,
          in_sync: true,
          only_in_calendar: [],
          only_in_d1: [],
        })),
      });
    },
    { timeout: 3_000, interval: 50 },
  );
}

/** D1's calendar rows of one block: the units it covers. */
const unitsOf = async (blockId: string) =>
  (
    await everyShard
      .prepare(
        "select unit, resource_id, staffer_id, location_id, kind, starts_at, ends_at from calendar_entries where source_id = ? order by unit",
      )
      .bind(blockId)
      .all<{ unit: number; resource_id: string; staffer_id: string | null; kind: string }>()
  ).results;

/** A day in 2030 at `hh`:00 UTC. */
const at = (day: number, hh: number) =>
  `2030-04-${String(day).padStart(2, "0")}T${String(hh).padStart(2, "0")}:00:00Z`;

describe("POST /workspaces/{ws}/resources/{uuid}/blocked-spots", () => {
  let room: TestResource;

  beforeAll(async () => {
    room = await createResource(ws, location.uuid, { kind: "room", quantity: 3 });
  });

  it("blocks one unit: the block, one D1 entry and that unit's calendar only", async () => {
    const res = await block(room.uuid, {
      starts_at: at(1, 9),
      ends_at: at(1, 11),
      unit: 2,
      comment: "Repainting",
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toEqual({
      uuid: expect.any(String),
      resource_uuid: room.uuid,
      unit: 2,
      starts_at: at(1, 9),
      ends_at: at(1, 11),
      comment: "Repainting",
      created_at: expect.any(String),
    });
    expect(d1RoundTrips(res.headers)).toBeLessThanOrEqual(2);
    expect(await unitsOf(res.body.uuid)).toEqual([
      {
        unit: 2,
        resource_id: room.uuid,
        staffer_id: null,
        location_id: location.uuid,
        kind: "blocked",
        starts_at: Date.parse(at(1, 9)),
        ends_at: Date.parse(at(1, 11)),
      },
    ]);
    await expectUnitsInSync(room);
    const unit2 = await calendarFor(env, ws.id, unitCalendarId(room.uuid, 2)).entries();
    expect(unit2).toContainEqual(
      expect.objectContaining({ kind: "blocked", source: res.body.uuid }),
    );
    const unit1 = await calendarFor(env, ws.id, unitCalendarId(room.uuid, 1)).entries();
    expect(unit1.filter((e) => e.source === res.body.uuid)).toEqual([]);
  });

  it("blocks every unit when unit is omitted (unit null), comment defaulting to null", async () => {
    const res = await block(room.uuid, { starts_at: at(2, 9), ends_at: at(2, 10) });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ unit: null, comment: null });
    expect((await unitsOf(res.body.uuid)).map((r) => r.unit)).toEqual([1, 2, 3]);
    await expectUnitsInSync(room);
    for (const unit of [1, 2, 3]) {
      const entries = await calendarFor(env, ws.id, unitCalendarId(room.uuid, unit)).entries();
      expect(entries.filter((e) => e.source === res.body.uuid)).toHaveLength(1);
    }
  });

  it("blocks all 50 units of the largest resource in one write (statements under D1's limit)", async () => {
    const chairs = await createResource(ws, location.uuid, { kind: "chair", quantity: 50 });
    const res = await block(chairs.uuid, { starts_at: at(3, 9), ends_at: at(3, 10) });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(await unitsOf(res.body.uuid)).toHaveLength(50);
    await expectUnitsInSync(chairs);
  });

  it.each([
    ["missing starts_at", { starts_at: undefined }, "starts_at"],
    ["a sub-second start", { starts_at: "2030-04-05T09:00:00.250+02:00" }, "starts_at"],
    ["an end past 2100", { ends_at: "9999-12-31T23:59:59Z" }, "ends_at"],
    ["date only", { ends_at: "2030-04-05" }, "ends_at"],
    ["end before start", { ends_at: at(5, 8) }, "ends_at"],
    ["empty range", { ends_at: at(5, 9) }, "ends_at"],
    ["over 366 days", { ends_at: "2031-04-06T09:00:01Z" }, "ends_at"],
    ["unit 0", { unit: 0 }, "unit"],
    ["unit 51", { unit: 51 }, "unit"],
    ["unit past the quantity", { unit: 4 }, "unit"],
    ["fractional unit", { unit: 1.5 }, "unit"],
    ["comment over 1000", { comment: "x".repeat(1001) }, "comment"],
  ])("rejects %s with 422 and writes nothing", async (_, change, field) => {
    const blocks = await rowCount("resource_blocks");
    const entries = await rowCount("calendar_entries");
    const res = await block(room.uuid, { starts_at: at(5, 9), ends_at: at(5, 10), ...change });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual([field]);
    expect(await rowCount("resource_blocks")).toBe(blocks);
    expect(await rowCount("calendar_entries")).toBe(entries);
  });

  it("accepts a block of exactly 366 days", async () => {
    const res = await block(room.uuid, { starts_at: at(5, 9), ends_at: "2031-04-06T09:00:00Z" });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  });

  it("answers 404 for an unknown resource, another workspace's, or an unknown workspace", async () => {
    const body = { starts_at: at(6, 9), ends_at: at(6, 10) };
    expect((await block(crypto.randomUUID(), body)).status).toBe(404);
    const stranger = await createWorkspace();
    expect((await block(room.uuid, body, stranger.id)).status).toBe(404);
    expect((await block(room.uuid, body, crypto.randomUUID())).status).toBe(404);
    expect((await auditOf(room.uuid, stranger.id)).status).toBe(404);
    expect((await auditOf(crypto.randomUUID())).status).toBe(404);
  });

  it("needs the admin token", async () => {
    const path = `${ADMIN}/workspaces/${ws.id}/resources/${room.uuid}`;
    const res = await send(`${path}/blocked-spots`, {
      method: "POST",
      body: { starts_at: at(6, 9), ends_at: at(6, 10) },
      headers: { authorization: `Bearer ${ws.apiKey}` },
    });
    expect(res.status).toBe(401);
    expect((await send(`${path}/calendar`)).status).toBe(401);
    expect((await send(`${path}/calendar/rebuild`, { method: "POST" })).status).toBe(401);
  });

  it("two blocks on the same resource started together both succeed, and every unit is in sync", async () => {
    const blocks = await rowCount("resource_blocks");
    const [a, b] = await Promise.all([
      block(room.uuid, { starts_at: at(7, 9), ends_at: at(7, 12) }),
      block(room.uuid, { starts_at: at(7, 10), ends_at: at(7, 11), unit: 1 }),
    ]);
    expect(a.status, JSON.stringify(a.body)).toBe(201);
    expect(b.status, JSON.stringify(b.body)).toBe(201);
    expect(await rowCount("resource_blocks")).toBe(blocks + 2);
    expect(await unitsOf(a.body.uuid)).toHaveLength(3);
    expect(await unitsOf(b.body.uuid)).toHaveLength(1);
    await expectUnitsInSync(room);
  });
});

describe("blocked time over other busy time of a unit", () => {
  /** A D1 row on a unit's calendar, written before the unit's object ever loaded (it loads D1 first). */
  const seed = (resource: TestResource, unit: number, kind: "booking" | "held", hh: number) =>
    everyShard
      .prepare(
        "insert into calendar_entries (id, workspace_id, resource_id, unit, location_id, kind, source_id, starts_at, ends_at, expires_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
      )
      .bind(
        crypto.randomUUID(),
        ws.id,
        resource.uuid,
        unit,
        location.uuid,
        kind,
        crypto.randomUUID(),
        Date.parse(at(8, hh)),
        Date.parse(at(8, hh + 1)),
        kind === "held" ? Date.now() + 600_000 : null,
      )
      .run();

  it("may be laid over a booking (maintenance), which stays", async () => {
    const bed = await createResource(ws, location.uuid, { quantity: 1 });
    await seed(bed, 1, "booking", 9);
    const res = await block(bed.uuid, { starts_at: at(8, 8), ends_at: at(8, 12) });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await expectUnitsInSync(bed);
    const entries = await calendarFor(env, ws.id, unitCalendarId(bed.uuid, 1)).entries();
    expect(entries.map((e) => e.kind).sort()).toEqual(["blocked", "booking"]);
  });

  it("is refused over a live reservation hold (409 slot_unavailable), writing nothing anywhere", async () => {
    const bays = await createResource(ws, location.uuid, { quantity: 2 });
    await seed(bays, 2, "held", 9);
    const blocks = await rowCount("resource_blocks");
    const one = await block(bays.uuid, { starts_at: at(8, 9), ends_at: at(8, 10), unit: 2 });
    expect(one.status).toBe(409);
    expect(one.body.code).toBe("slot_unavailable");
    const all = await block(bays.uuid, { starts_at: at(8, 8), ends_at: at(8, 12) });
    expect(all.status).toBe(409);
    expect(await rowCount("resource_blocks")).toBe(blocks);
    // Unit 1 granted its part of the refused write and released it: it holds nothing.
    await expectUnitsInSync(bays);
    expect(await calendarFor(env, ws.id, unitCalendarId(bays.uuid, 1)).entries()).toEqual([]);
    // The free unit alone can still be blocked.
    const free = await block(bays.uuid, { starts_at: at(8, 9), ends_at: at(8, 10), unit: 1 });
    expect(free.status).toBe(201);
  });
});

describe("GET and POST …/resources/{uuid}/calendar(/rebuild)", () => {
  it("audits every unit (in sync on a fresh resource) and rebuilds an object from D1", async () => {
    const lanes = await createResource(ws, location.uuid, { quantity: 2 });
    await expectUnitsInSync(lanes);
    const res = await block(lanes.uuid, { starts_at: at(9, 9), ends_at: at(9, 10), unit: 1 });
    expect(res.status).toBe(201);
    await expectUnitsInSync(lanes);

    // A lost calendar (a reset namespace): the audit tells, the rebuild mends.
    const stub = calendarFor(env, ws.id, unitCalendarId(lanes.uuid, 1));
    const [entry] = await stub.entries();
    expect(entry).toBeDefined();
    await everyShard
      .prepare("delete from calendar_entries where source_id = ?")
      .bind(res.body.uuid)
      .run();
    const drifted = await auditOf(lanes.uuid);
    expect(drifted.body.in_sync).toBe(false);
    expect(drifted.body.units[0]).toMatchObject({
      unit: 1,
      in_sync: false,
      only_in_calendar: [{ blocked_spot_uuid: res.body.uuid, starts_at: at(9, 9) }],
    });
    expect(drifted.body.units[1].in_sync).toBe(true);

    const rebuilt = await admin(`/workspaces/${ws.id}/resources/${lanes.uuid}/calendar/rebuild`, {
      method: "POST",
    });
    expect(rebuilt.status).toBe(200);
    expect(rebuilt.body.in_sync).toBe(true);
    expect(rebuilt.body.units).toHaveLength(2);
    expect(await stub.entries()).toEqual([]);
  });
});
