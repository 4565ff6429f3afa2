import { beforeAll, describe, expect, it } from "vitest";
import { rowCount } from "../helpers/db";
import {
  createLocation,
  createStaffer,
  createWorkspace,
  type TestWorkspace,
} from "../helpers/factory";
import { admin, d1RoundTrips } from "../helpers/http";

let ws: TestWorkspace;
let main: { uuid: string; name: string };
let branch: { uuid: string; name: string };
let anna: { uuid: string };
let ben: { uuid: string };
let hidden: { uuid: string };
let category: { uuid: string };

beforeAll(async () => {
  ws = await createWorkspace();
  main = await createLocation(ws, { name: "Main" });
  branch = await createLocation(ws, { name: "Branch" });
  anna = await createStaffer(ws, [main.uuid]);
  ben = await createStaffer(ws, [branch.uuid]);
  hidden = await createStaffer(ws, [main.uuid], { is_active_in_widget: false });
  category = (
    await admin(`/workspaces/${ws.id}/categories`, {
      method: "POST",
      body: { name: "Hair", kind: "service" },
    })
  ).body;
});

const create = (body: Record<string, unknown>) => ws.api("/services", { method: "POST", body });
const count = () => rowCount("services");

describe("POST /services", () => {
  it("creates a service with the full Service shape", async () => {
    const res = await create({
      name: "Colour & cut",
      duration: 90,
      price: 8900,
      price_discount: 7900,
      description: "Full colour",
      category_uuid: category.uuid,
      is_pause: true,
      pause: 15,
      class: "blue",
      images: ["/img/colour.jpg"],
      is_top: true,
      location_uuids: [main.uuid],
      staffer_uuids: [anna.uuid],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(d1RoundTrips(res.headers)).toBeLessThanOrEqual(3);
    expect(res.body).toEqual({
      uuid: expect.any(String),
      name: "Colour & cut",
      description: "Full colour",
      images: ["/img/colour.jpg"],
      currency: "EUR",
      price: 8900,
      price_formatted: "€89.00",
      price_type: "base",
      discount: 7900,
      discount_formatted: "€79.00",
      duration: { value: 90, label: "minutes", iso_8601: "PT1H30M" },
      is_extra_time: true,
      extra_time: { value: 15, label: "minutes", iso_8601: "PT15M" },
      is_price_hidden: false,
      is_duration_hidden: false,
      is_top: true,
      starting_at: false,
      live: true,
      live_in_widget: true,
      class: "blue",
      category: { uuid: category.uuid, name: "Hair", order: 0, cover: null },
      locations: [{ uuid: main.uuid, name: "Main" }],
      staffers: [{ uuid: anna.uuid }],
      resource_uuids: [],
      capacity: 1,
      payment_policy: { mode: "none" },
    });
    const fetched = await ws.api(`/services/${res.body.uuid}`);
    expect(fetched.body).toEqual(res.body);
  });

  it("defaults to every location and every bookable staffer", async () => {
    const res = await create({ name: "Trim", duration: 15, price: 1000 });
    expect(res.body.locations.map((l: { uuid: string }) => l.uuid).sort()).toEqual(
      [main.uuid, branch.uuid].sort(),
    );
    expect(res.body.staffers.map((s: { uuid: string }) => s.uuid).sort()).toEqual(
      [anna.uuid, ben.uuid].sort(),
    );
    expect(res.body.staffers).not.toContainEqual({ uuid: hidden.uuid });
    expect(res.body.discount).toBe(1000);
    // The reference types `class` as a string: a service without one shows the default key.
    expect(res.body.class).toBe("default");
    expect((await ws.api(`/services/${res.body.uuid}`)).body.class).toBe("default");
  });

  it.each([
    ["a website in the name", { name: "Cut at www.cheap.example" }, "name"],
    ["an e-mail in the name", { name: "Cut – anna@salon.de" }, "name"],
    ["a short duration", { duration: 4 }, "duration"],
    ["a long duration", { duration: 1426 }, "duration"],
    ["a long pause", { pause: 181 }, "pause"],
    ["a discount not below price", { price_discount: 1000 }, "price_discount"],
    ["another price type", { price_type: "from" }, "price_type"],
    ["a negative price", { price: -1 }, "price"],
    [
      "an unknown category",
      { category_uuid: "00000000-0000-4000-8000-000000000001" },
      "category_uuid",
    ],
    [
      "an unknown location",
      { location_uuids: ["00000000-0000-4000-8000-000000000001"] },
      "location_uuids",
    ],
    [
      "a staffer of another location",
      { location_uuids: ["BRANCH"], staffer_uuids: ["ANNA"] },
      "staffer_uuids",
    ],
    ["a missing name", { name: undefined }, "name"],
  ])("rejects %s with 422 and writes nothing", async (_, change, field) => {
    const before = await count();
    const body: Record<string, unknown> = { name: "Cut", duration: 30, price: 1000, ...change };
    if (Array.isArray(body.staffer_uuids)) body.staffer_uuids = [anna.uuid];
    if (Array.isArray(body.location_uuids) && body.location_uuids[0] === "BRANCH")
      body.location_uuids = [branch.uuid];
    const res = await create(body);
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(Object.keys(res.body.errors)).toContain(field);
    expect(await count()).toBe(before);
  });

  it("keeps another workspace's records out", async () => {
    const other = await createWorkspace();
    const theirs = await other.api("/services", {
      method: "POST",
      body: { name: "X", duration: 30, price: 1 },
    });
    expect((await ws.api(`/services/${theirs.body.uuid}`)).status).toBe(404);
    const res = await create({ name: "Y", duration: 30, price: 1, category_uuid: category.uuid });
    expect(res.status).toBe(201);
    const crossed = await other.api("/services", {
      method: "POST",
      body: { name: "Z", duration: 30, price: 1, location_uuids: [main.uuid] },
    });
    expect(crossed.status).toBe(422);
  });

  it("lists services in ≤ 3 round trips whatever the page size", async () => {
    for (let i = 0; i < 20; i++)
      await create({ name: `Service ${i}`, duration: 30, price: 100 * i });
    const res = await ws.api("/services?per_page=100");
    expect(res.body.meta.total).toBeGreaterThanOrEqual(22);
    expect(res.body.data[0].locations.length).toBeGreaterThan(0);
    expect(d1RoundTrips(res.headers)).toBeLessThanOrEqual(3);
  });
});
