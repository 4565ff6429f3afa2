import { beforeAll, describe, expect, it } from "vitest";
import { createWorkspace, type TestWorkspace } from "../helpers/factory";
import { rowCount } from "../helpers/db";
import { apiDirect } from "../helpers/direct";
import { d1RoundTrips } from "../helpers/http";
import { createPublishableKey, type PublishableKey } from "../helpers/keys";
import { createPackageTemplate } from "../helpers/packages";

const ORIGIN = { origin: "https://salon.example" };
let ws: TestWorkspace;
let other: TestWorkspace;
let pk: PublishableKey;
/** 50 services of `ws`. */
const services: string[] = [];
let foreignService: string;

const service = async (w: TestWorkspace, name: string) => {
  const res = await apiDirect(w)("/services", {
    method: "POST",
    body: { name, duration: 30, price: 2000 },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.uuid as string;
};

beforeAll(async () => {
  ws = await createWorkspace();
  other = await createWorkspace({ currency: "USD" });
  pk = await createPublishableKey(ws);
  for (let i = 0; i < 50; i++) services.push(await service(ws, `Service ${i}`));
  foreignService = await service(other, "Elsewhere");
});

const post = (body: unknown, w = ws) => w.api("/packages", { method: "POST", body });
const valid = (over: Record<string, unknown> = {}) => ({
  name: "10 cuts",
  price: 30000,
  credits: [{ service_uuids: [services[0]], count: 10 }],
  valid_days: 365,
  ...over,
});

describe("POST /packages", () => {
  it("creates a package in the workspace's currency, live, not a membership", async () => {
    const res = await post(valid());
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toEqual({
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: "10 cuts",
      price: 30000,
      currency: "EUR",
      credits: [{ service_uuids: [services[0]], count: 10 }],
      valid_days: 365,
      renews: null,
      live: true,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    // D1 round trips after authentication: create reads the services, then writes.
    expect(d1RoundTrips(res.headers)).toBeLessThanOrEqual(2);
    const got = await ws.api(`/packages/${res.body.uuid}`);
    expect(d1RoundTrips(got.headers)).toBe(1);
    const listed = await ws.api(`/packages`);
    expect(d1RoundTrips(listed.headers)).toBe(1);
    const patched = await ws.api(`/packages/${res.body.uuid}`, {
      method: "PATCH",
      body: { name: "10 cuts" },
    });
    expect(d1RoundTrips(patched.headers)).toBeLessThanOrEqual(2);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);
    expect(patched.status).toBe(200);
  });

  it("takes a currency (upper-cased) and renews monthly: a membership", async () => {
    const res = await post(valid({ currency: "usd", renews: { every: "month" } }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.currency).toBe("USD");
    expect(res.body.renews).toEqual({ every: "month" });
  });

  it("takes every bound at its maximum: 10 credits of 50 services, count 1000, 1095 days", async () => {
    const credits = Array.from({ length: 10 }, (_, i) => ({
      service_uuids: i === 0 ? services : [services[i]],
      count: 1000,
    }));
    const res = await post(valid({ credits, valid_days: 1095, price: 1_000_000_000 }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.credits).toHaveLength(10);
    expect(res.body.credits[0].service_uuids).toEqual(services);
    expect(res.body.valid_days).toBe(1095);
    const least = await post(valid({ valid_days: 1, price: 0 }));
    expect(least.status, JSON.stringify(least.body)).toBe(201);
  });

  it.each([
    [
      "11 credits",
      { credits: Array.from({ length: 11 }, () => ({ service_uuids: ["S0"], count: 1 })) },
      "credits",
    ],
    ["no credit", { credits: [] }, "credits"],
    ["valid_days 0", { valid_days: 0 }, "valid_days"],
    ["valid_days 1096", { valid_days: 1096 }, "valid_days"],
    ["valid_days 1.5", { valid_days: 1.5 }, "valid_days"],
    ["51 services", { credits: [{ service_uuids: "S51", count: 1 }] }, "credits.0.service_uuids"],
    ["no service", { credits: [{ service_uuids: [], count: 1 }] }, "credits.0.service_uuids"],
    ["count 0", { credits: [{ service_uuids: ["S0"], count: 0 }] }, "credits.0.count"],
    ["count 1001", { credits: [{ service_uuids: ["S0"], count: 1001 }] }, "credits.0.count"],
    [
      "a service twice",
      { credits: [{ service_uuids: ["S0", "S0"], count: 1 }] },
      "credits.0.service_uuids.1",
    ],
    [
      "a bad uuid",
      { credits: [{ service_uuids: ["nope"], count: 1 }] },
      "credits.0.service_uuids.0",
    ],
    ["a negative price", { price: -1 }, "price"],
    ["a price over the bound", { price: 1_000_000_001 }, "price"],
    ["no price", { price: undefined }, "price"],
    ["an empty name", { name: " " }, "name"],
    ["an unknown currency", { currency: "ZZZ" }, "currency"],
    ["weekly renewal", { renews: { every: "week" } }, "renews.every"],
    ["an unknown field", { colour: "red" }, "colour"],
    [
      "an unknown credit field",
      { credits: [{ service_uuids: ["S0"], count: 1, x: 1 }] },
      "credits.0.x",
    ],
  ])("refuses %s with 422 on its field and writes nothing", async (_, over, field) => {
    const resolve = (v: unknown): unknown =>
      v === "S0"
        ? services[0]
        : v === "S51"
          ? [...services, crypto.randomUUID()]
          : Array.isArray(v)
            ? v.map(resolve)
            : v && typeof v === "object"
              ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, resolve(x)]))
              : v;
    const before = await rowCount("packages", ws.id);
    const res = await post(resolve(valid(over as Record<string, unknown>)));
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body.code).toBe("validation_failed");
    expect(Object.keys(res.body.errors)).toContain(field);
    expect(await rowCount("packages", ws.id)).toBe(before);
  });

  it("refuses another workspace's service (and an unknown one) at its position", async () => {
    const before = await rowCount("packages", ws.id);
    const res = await post(
      valid({
        credits: [
          { service_uuids: [services[0]], count: 1 },
          { service_uuids: [services[1], foreignService, crypto.randomUUID()], count: 1 },
        ],
      }),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body.errors).toEqual({
      "credits.1.service_uuids.1": ["Unknown service."],
      "credits.1.service_uuids.2": ["Unknown service."],
    });
    expect(await rowCount("packages", ws.id)).toBe(before);
  });

  it("refuses a publishable key on every secret route", async () => {
    const created = await createPackageTemplate(ws, {
      credits: [{ service_uuids: [services[0]], count: 1 }],
    });
    const calls = [
      pk.api("/packages", { method: "POST", body: valid(), headers: ORIGIN }),
      pk.api("/packages", { headers: ORIGIN }),
      pk.api(`/packages/${created.uuid}`, { headers: ORIGIN }),
      pk.api(`/packages/${created.uuid}`, {
        method: "PATCH",
        body: { live: false },
        headers: ORIGIN,
      }),
      pk.api(`/customer-packages?customer_uuid=${crypto.randomUUID()}`, { headers: ORIGIN }),
      pk.api(`/customer-packages/${crypto.randomUUID()}/cancel`, {
        method: "POST",
        headers: ORIGIN,
      }),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status, JSON.stringify(res.body)).toBe(403);
      expect(res.body.code).toBe("forbidden");
    }
    expect((await ws.api(`/packages/${created.uuid}`)).body.live).toBe(true);
  });
});

describe("GET /packages", () => {
  it("pages the workspace's packages oldest first and filters by live", async () => {
    const w = await createWorkspace();
    const s = await service(w, "Cut");
    const made = [];
    for (let i = 0; i < 3; i++)
      made.push(
        await createPackageTemplate(w, {
          name: `P${i}`,
          credits: [{ service_uuids: [s], count: 1 }],
        }),
      );
    const first = await w.api("/packages?per_page=2");
    expect(first.status).toBe(200);
    expect(first.body.data.map((p: { name: string }) => p.name)).toEqual(["P0", "P1"]);
    expect(first.body.meta).toMatchObject({ total: 3, per_page: 2, last_page: 2, current_page: 1 });
    expect(first.body.links.next).toContain("page=2");
    const second = await w.api("/packages?per_page=2&page=2");
    expect(second.body.data.map((p: { name: string }) => p.name)).toEqual(["P2"]);
    expect(second.body.links.next).toBeNull();

    const off = await w.api(`/packages/${made[1]?.uuid}`, {
      method: "PATCH",
      body: { live: false },
    });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect(off.body.live).toBe(false);
    const live = await w.api("/packages?live=true");
    expect(live.body.data.map((p: { name: string }) => p.name)).toEqual(["P0", "P2"]);
    const withdrawn = await w.api("/packages?live=false");
    expect(withdrawn.body.data.map((p: { name: string }) => p.name)).toEqual(["P1"]);
    expect(withdrawn.body.meta.total).toBe(1);
    const bad = await w.api("/packages?live=maybe");
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)).toEqual(["live"]);
    // Another workspace's packages are not listed.
    expect((await other.api("/packages")).body.meta.total).toBe(0);
  });

  it("answers 404 for an unknown package and another workspace's, 422 for a bad uuid", async () => {
    const mine = await createPackageTemplate(ws, {
      credits: [{ service_uuids: [services[0]], count: 1 }],
    });
    expect((await ws.api(`/packages/${crypto.randomUUID()}`)).status).toBe(404);
    expect((await other.api(`/packages/${mine.uuid}`)).status).toBe(404);
    expect((await ws.api("/packages/nope")).status).toBe(422);
  });
});

describe("PATCH /packages/{uuid}", () => {
  it("changes what is sent and keeps the rest", async () => {
    const p = await createPackageTemplate(ws, {
      credits: [{ service_uuids: [services[0]], count: 5 }],
      renews: { every: "month" },
    });
    const res = await ws.api(`/packages/${p.uuid}`, {
      method: "PATCH",
      body: {
        name: "5 cuts",
        price: 100,
        valid_days: 30,
        credits: [{ service_uuids: [services[1], services[2]], count: 3 }],
        renews: null,
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      uuid: p.uuid,
      name: "5 cuts",
      price: 100,
      currency: "EUR",
      valid_days: 30,
      credits: [{ service_uuids: [services[1], services[2]], count: 3 }],
      renews: null,
      live: true,
    });
    const again = await ws.api(`/packages/${p.uuid}`, {
      method: "PATCH",
      body: { renews: { every: "month" } },
    });
    expect(again.body).toMatchObject({ name: "5 cuts", renews: { every: "month" } });
    expect((await ws.api(`/packages/${p.uuid}`)).body).toEqual(again.body);
  });

  it("refuses bad changes with 422 and changes nothing", async () => {
    const p = await createPackageTemplate(ws, {
      credits: [{ service_uuids: [services[0]], count: 5 }],
    });
    const cases: [unknown, string][] = [
      [{}, "body"],
      [{ currency: "USD" }, "currency"],
      [{ valid_days: 1096 }, "valid_days"],
      [{ live: "no" }, "live"],
      [{ credits: [{ service_uuids: [foreignService], count: 1 }] }, "credits.0.service_uuids.0"],
    ];
    for (const [body, field] of cases) {
      const res = await ws.api(`/packages/${p.uuid}`, { method: "PATCH", body });
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expect(Object.keys(res.body.errors)).toContain(field);
    }
    expect((await ws.api(`/packages/${p.uuid}`)).body).toEqual(p);
    const unknown = await ws.api(`/packages/${crypto.randomUUID()}`, {
      method: "PATCH",
      body: { live: false },
    });
    expect(unknown.status).toBe(404);
    const foreign = await other.api(`/packages/${p.uuid}`, {
      method: "PATCH",
      body: { live: false },
    });
    expect(foreign.status).toBe(404);
  });

  it("writes concurrent changes one after the other: none is lost", async () => {
    const p = await createPackageTemplate(ws, {
      credits: [{ service_uuids: [services[0]], count: 5 }],
    });
    const [a, b] = await Promise.all([
      ws.api(`/packages/${p.uuid}`, { method: "PATCH", body: { name: "A" } }),
      ws.api(`/packages/${p.uuid}`, { method: "PATCH", body: { price: 7 } }),
    ]);
    expect([a?.status, b?.status]).toEqual([200, 200]);
    const now = (await ws.api(`/packages/${p.uuid}`)).body;
    expect(now).toMatchObject({ name: "A", price: 7 });
  });
});
