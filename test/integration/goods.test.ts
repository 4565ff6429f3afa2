import { beforeAll, describe, expect, it } from "vitest";
import { rowCount } from "../helpers/db";
import { createLocation, createWorkspace, type TestWorkspace } from "../helpers/factory";
import { admin, d1RoundTrips } from "../helpers/http";

let ws: TestWorkspace;
let location: { uuid: string };
let category: { uuid: string };
beforeAll(async () => {
  ws = await createWorkspace();
  location = await createLocation(ws);
  category = (
    await admin(`/workspaces/${ws.id}/categories`, {
      method: "POST",
      body: { name: "Care", kind: "good", class: "green" },
    })
  ).body;
});

const create = (body: Record<string, unknown>) => ws.api("/goods", { method: "POST", body });
const valid = (over: Record<string, unknown> = {}) => ({
  name: "Shampoo",
  article: `SH-${crypto.randomUUID().slice(0, 8)}`,
  is_payable: true,
  price: 1890,
  unit: "pcs",
  is_consumable: false,
  ...over,
});

describe("POST /goods", () => {
  it("creates a good with stock and the full Good shape", async () => {
    const res = await create(
      valid({
        article: "SH-250",
        category_uuid: category.uuid,
        description: "Repair",
        is_consumable: true,
        consumable_unit: "ml",
        quantity_in_unit: 250,
        images: ["/img/a.jpg", "/img/b.jpg"],
        public_name_translatable: { de: "Shampoo", en: "Shampoo" },
        initial_stock: {
          is_set: true,
          location_uuid: location.uuid,
          unit_price: 900,
          quantity: 24,
          critical_stock: 3,
        },
      }),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(d1RoundTrips(res.headers)).toBeLessThanOrEqual(3);
    expect(res.body).toEqual({
      uuid: expect.any(String),
      name: "Shampoo",
      article: "SH-250",
      category: { uuid: category.uuid, name: "Care", class: "green" },
      description: "Repair",
      is_payable: true,
      price: 1890,
      unit: "pcs",
      is_consumable: true,
      consumable_unit: "ml",
      quantity_in_unit: 250,
      stock: 24,
      can_be_set_up_as_consumable: false,
      images: ["/img/a.jpg", "/img/b.jpg"],
      image: "/img/a.jpg",
      live: true,
      live_in_widget: true,
      public_name_translatable: { de: "Shampoo", en: "Shampoo" },
      public_description_translatable: {},
    });
    const list = await ws.api("/goods");
    expect(list.body.data.find((g: { uuid: string }) => g.uuid === res.body.uuid)).toEqual(
      res.body,
    );
  });

  it("creates a good without stock when initial_stock is omitted or not set", async () => {
    const res = await create(valid({ initial_stock: { is_set: false } }));
    expect(res.body).toMatchObject({ stock: 0, image: null, category: null });
  });

  it.each([
    ["payable without price", { price: undefined }, "price"],
    ["consumable without consumable_unit", { is_consumable: true }, "consumable_unit"],
    [
      "other consumable unit without quantity_in_unit",
      { is_consumable: true, consumable_unit: "ml" },
      "quantity_in_unit",
    ],
    ["unknown unit", { unit: "bucket" }, "unit"],
    [
      "stock without location",
      { initial_stock: { is_set: true, unit_price: 1, quantity: 1 } },
      "initial_stock.location_uuid",
    ],
    [
      "stock at an unknown location",
      {
        initial_stock: {
          is_set: true,
          location_uuid: "00000000-0000-4000-8000-000000000001",
          unit_price: 1,
          quantity: 1,
        },
      },
      "initial_stock.location_uuid",
    ],
    ["a service category", { category_uuid: "SERVICE" }, "category_uuid"],
    ["missing is_payable", { is_payable: undefined }, "is_payable"],
  ])("rejects %s with 422 and writes nothing", async (_, change, field) => {
    const body: Record<string, unknown> = valid(change);
    if (body.category_uuid === "SERVICE") {
      body.category_uuid = (
        await admin(`/workspaces/${ws.id}/categories`, {
          method: "POST",
          body: { name: "Hair", kind: "service" },
        })
      ).body.uuid;
    }
    const before = [await rowCount("goods"), await rowCount("good_stocks")];
    const res = await create(body);
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(Object.keys(res.body.errors)).toContain(field);
    expect([await rowCount("goods"), await rowCount("good_stocks")]).toEqual(before);
  });

  it("keeps articles unique per workspace, also under a race", async () => {
    expect((await create(valid({ article: "DUP" }))).status).toBe(201);
    const again = await create(valid({ article: "DUP" }));
    expect(again.status).toBe(422);
    expect(Object.keys(again.body.errors)).toEqual(["article"]);
    const race = await Promise.all([1, 2, 3, 4].map(() => create(valid({ article: "RACE" }))));
    expect(race.map((r) => r.status).sort()).toEqual([201, 422, 422, 422]);
    const other = await createWorkspace();
    const theirs = await other.api("/goods", { method: "POST", body: valid({ article: "DUP" }) });
    expect(theirs.status).toBe(201);
  });
});
