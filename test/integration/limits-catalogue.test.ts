import { beforeAll, describe, expect, it } from "vitest";
import { rowCount } from "../helpers/db";
import { adminDirect } from "../helpers/direct";
import { createWorkspace, type TestWorkspace } from "../helpers/factory";
import { admin } from "../helpers/http";
import { everyShard } from "../helpers/every-shard";

// Every array of the catalogue requests at its maximum works, and one more is a 422.
// D1 binds at most 100 parameters per statement: these sizes are far past that.
const MAX_SERVICE_LOCATIONS = 200;
const MAX_SERVICE_STAFFERS = 1000;
const MAX_STAFFER_LOCATIONS = 100;

let ws: TestWorkspace;
let locations: { uuid: string; name: string }[];
let staffers: { uuid: string }[];

const ids = (list: { uuid: string }[]) => list.map((x) => x.uuid);
const sorted = (list: string[]) => [...list].sort();
const randomIds = (n: number) => Array.from({ length: n }, () => crypto.randomUUID());

/** The one error body: message, code and the field's messages. */
function expect422(res: { status: number; body: unknown }, field: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(422);
  expect(res.body).toEqual({
    message: expect.any(String),
    code: "validation_failed",
    errors: expect.objectContaining({ [field]: [expect.any(String)] }),
  });
}

beforeAll(async () => {
  ws = await createWorkspace();
  const made = async (res: Promise<{ status: number; body: unknown }>) => {
    const { status, body } = await res;
    expect(status, JSON.stringify(body)).toBe(201);
    return body as { uuid: string; name: string };
  };
  locations = [];
  for (let i = 0; i < MAX_SERVICE_LOCATIONS; i++) {
    const name = `Branch ${String(i).padStart(3, "0")}`;
    locations.push(
      await made(
        adminDirect(`/workspaces/${ws.id}/locations`, {
          method: "POST",
          body: { name, timezone: "Europe/Berlin" },
        }),
      ),
    );
  }
  // Round-robin over the locations, so every staffer works at one of the service's places.
  staffers = [];
  for (let i = 0; i < MAX_SERVICE_STAFFERS; i++) {
    const at = locations[i % MAX_SERVICE_LOCATIONS]?.uuid;
    staffers.push(
      await made(
        adminDirect(`/workspaces/${ws.id}/staffers`, {
          method: "POST",
          body: { first_name: `Staff ${i}`, location_uuids: [at] },
        }),
      ),
    );
  }
}, 120_000);

describe("POST /services at its maxima", () => {
  const service = (body: Record<string, unknown>) =>
    ws.api("/services", {
      method: "POST",
      body: { name: "Wash", duration: 30, price: 1000, ...body },
    });

  it(`takes ${MAX_SERVICE_LOCATIONS} location_uuids, ${MAX_SERVICE_STAFFERS} staffer_uuids and 20 images`, async () => {
    const images = Array.from({ length: 20 }, (_, i) => `/img/${i}.jpg`);
    const res = await service({
      location_uuids: ids(locations),
      staffer_uuids: ids(staffers),
      images,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.locations).toEqual(
      [...locations]
        .sort((a, b) => (a.uuid < b.uuid ? -1 : 1))
        .map((l) => ({ uuid: l.uuid, name: l.name })),
    );
    expect(res.body.staffers).toEqual(sorted(ids(staffers)).map((uuid) => ({ uuid })));
    expect(res.body.images).toEqual(images);
    expect(res.body.class).toBe("default");
    // Stored whole: the read gives the same service back.
    const fetched = await ws.api(`/services/${res.body.uuid}`);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(res.body);
    expect(await rowCount("service_staffers", ws.id)).toBeGreaterThanOrEqual(MAX_SERVICE_STAFFERS);
  });

  it("defaults to every location and every bookable staffer, however many", async () => {
    const res = await service({ name: "Everyone" });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.locations).toHaveLength(MAX_SERVICE_LOCATIONS);
    expect(res.body.staffers).toEqual(sorted(ids(staffers)).map((uuid) => ({ uuid })));
  });

  it.each([
    ["location_uuids", () => ({ location_uuids: randomIds(MAX_SERVICE_LOCATIONS + 1) })],
    ["staffer_uuids", () => ({ staffer_uuids: randomIds(MAX_SERVICE_STAFFERS + 1) })],
    ["images", () => ({ images: Array.from({ length: 21 }, (_, i) => `/img/${i}.jpg`) })],
  ])("refuses one %s past the maximum with 422 and writes nothing", async (field, body) => {
    const before = await rowCount("services", ws.id);
    expect422(await service(body()), field);
    expect(await rowCount("services", ws.id)).toBe(before);
  });
});

describe("admin staffers at their maxima", () => {
  // 15 non-overlapping 45-minute intervals a day fit between 06:00 and 21:00.
  const weekly = (locationId: string, n: number) =>
    Array.from({ length: n }, (_, k) => {
      const hour = 6 + Math.floor(k / 7);
      return {
        location_uuid: locationId,
        weekday: 1 + (k % 7),
        start: `${String(hour).padStart(2, "0")}:00`,
        end: `${String(hour).padStart(2, "0")}:45`,
      };
    });
  const day = (k: number) =>
    new Date(Date.UTC(2030, 0, 1) + k * 86_400_000).toISOString().slice(0, 10);
  const tenIntervals = Array.from({ length: 10 }, (_, j) => ({
    start: `${String(8 + j).padStart(2, "0")}:00`,
    end: `${String(8 + j).padStart(2, "0")}:30`,
  }));
  const overrides = (locationId: string, n: number, intervals = tenIntervals) =>
    Array.from({ length: n }, (_, k) => ({ location_uuid: locationId, date: day(k), intervals }));
  const permissions = (n: number) => Array.from({ length: n }, (_, i) => `perm-${i}`);

  const create = (body: Record<string, unknown>) =>
    admin(`/workspaces/${ws.id}/staffers`, {
      method: "POST",
      body: { first_name: "Max", location_uuids: [locations[0]?.uuid], ...body },
    });

  it(`creates a staffer with ${MAX_STAFFER_LOCATIONS} locations, 100 intervals, 500 overrides of 10 intervals and 50 permissions`, async () => {
    const at = ids(locations.slice(0, MAX_STAFFER_LOCATIONS));
    const home = at[0] ?? "";
    const res = await create({
      location_uuids: at,
      permissions: permissions(50),
      schedule: weekly(home, 100),
      overrides: overrides(home, 500),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toEqual({
      uuid: expect.any(String),
      first_name: "Max",
      last_name: null,
      email: null,
      is_active_in_widget: true,
      permissions: permissions(50),
      location_uuids: sorted(at),
    });
    const rows = async (table: string) =>
      (
        await everyShard
          .prepare(`select count(*) as n from ${table} where staffer_id = ?`)
          .bind(res.body.uuid)
          .first<{ n: number }>()
      )?.n;
    expect(await rows("staffer_locations")).toBe(MAX_STAFFER_LOCATIONS);
    expect(await rows("staffer_schedules")).toBe(100);
    expect(await rows("staffer_date_overrides")).toBe(500);

    // The public list shows it with every location, on its last full page of 100.
    const first = await ws.api("/staffers?per_page=100");
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(100);
    const last = await ws.api(`/staffers?per_page=100&page=${first.body.meta.last_page}`);
    expect(last.body.data).toContainEqual(res.body);

    // Replacing the schedule at its maxima works too.
    const put = await admin(`/workspaces/${ws.id}/staffers/${res.body.uuid}/schedule`, {
      method: "PUT",
      body: { intervals: weekly(home, 100), overrides: overrides(home, 500) },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.intervals).toHaveLength(100);
    expect(put.body.overrides).toHaveLength(500);
    expect(await rows("staffer_schedules")).toBe(100);
    expect(await rows("staffer_date_overrides")).toBe(500);
  });

  it.each([
    ["location_uuids", () => ({ location_uuids: randomIds(MAX_STAFFER_LOCATIONS + 1) })],
    ["permissions", () => ({ permissions: permissions(51) })],
    ["schedule", () => ({ schedule: weekly(locations[0]?.uuid ?? "", 101) })],
    ["overrides", () => ({ overrides: overrides(locations[0]?.uuid ?? "", 501) })],
    [
      "overrides.0.intervals",
      () => ({
        overrides: overrides(locations[0]?.uuid ?? "", 1, [
          ...tenIntervals,
          { start: "20:00", end: "20:30" },
        ]),
      }),
    ],
  ])("refuses one %s past the maximum with 422 and writes nothing", async (field, body) => {
    const before = await rowCount("staffers", ws.id);
    expect422(await create(body()), field);
    expect(await rowCount("staffers", ws.id)).toBe(before);
  });

  it("refuses one schedule entry past the maximum on PUT schedule", async () => {
    const staffer = staffers[0]?.uuid;
    const home = locations[0]?.uuid ?? "";
    const url = `/workspaces/${ws.id}/staffers/${staffer}/schedule`;
    expect422(
      await admin(url, { method: "PUT", body: { intervals: weekly(home, 101) } }),
      "intervals",
    );
    expect422(
      await admin(url, { method: "PUT", body: { intervals: [], overrides: overrides(home, 501) } }),
      "overrides",
    );
  });
});

describe("POST /goods at its maxima", () => {
  const locales = (n: number) =>
    Object.fromEntries(
      Array.from({ length: n }, (_, i) => [`x${String(i).padStart(2, "0")}`, `Name ${i}`]),
    );
  const good = (body: Record<string, unknown>) =>
    ws.api("/goods", {
      method: "POST",
      body: { name: "Oil", unit: "pcs", is_consumable: false, is_payable: true, price: 1, ...body },
    });

  it("takes 20 images and 50 translations, at the largest price and stock", async () => {
    const images = Array.from({ length: 20 }, (_, i) => `/img/${i}.jpg`);
    const res = await good({
      article: "MAX-1",
      price: 1_000_000_000,
      images,
      public_name_translatable: locales(50),
      initial_stock: {
        is_set: true,
        location_uuid: locations[0]?.uuid,
        unit_price: 1_000_000_000,
        quantity: 1_000_000_000,
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      price: 1_000_000_000,
      images,
      public_name_translatable: locales(50),
      stock: 1_000_000_000,
    });
  });

  it.each([
    ["images", { images: Array.from({ length: 21 }, (_, i) => `/img/${i}.jpg`) }],
    ["public_name_translatable", { public_name_translatable: locales(51) }],
    ["price", { price: 1_000_000_001 }],
  ])("refuses one %s past the maximum with 422", async (field, body) => {
    expect422(await good({ article: `PAST-${field}`, ...body }), field);
  });
});
