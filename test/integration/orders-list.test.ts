import { beforeAll, describe, expect, it } from "vitest";
import { createLocation, createStaffer } from "../helpers/factory";
import { admin, d1RoundTrips } from "../helpers/http";
import { at, customer } from "../helpers/salon";
import { createAccount, createShop, type Shop } from "../helpers/shop";

let shop: Shop;
let other: { location: string; seller: string; order: string };
let paid: string;
let withCustomer: { order: string; customer: string };
let created: string[];

beforeAll(async () => {
  shop = await createShop();
  const open = async (body: Record<string, unknown>) => {
    const res = await shop.ws.api("/orders", {
      method: "POST",
      body: {
        location_uuid: shop.location.uuid,
        staffer_uuid: shop.seller.uuid,
        goods: [{ good_uuid: shop.shampoo.uuid, price: 1250, quantity: 1 }],
        ...body,
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.uuid as string;
  };
  // A booking makes a booking order, which the POS list must not show.
  const booking = await shop.ws.api("/bookings", {
    method: "POST",
    body: {
      location_uuid: shop.location.uuid,
      service_uuid: shop.cut.uuid,
      reserved_on: at("11:00", "2030-03-05"),
      ...customer(),
    },
  });
  expect(booking.status).toBe(201);
  created = [];
  for (let i = 0; i < 3; i++) created.push(await open({}));
  paid = created[0] ?? "";
  expect(
    (
      await shop.ws.api(`/orders/${paid}/pay`, {
        method: "POST",
        body: { account_uuid: shop.cash.uuid },
      })
    ).status,
  ).toBe(200);
  const imported = await admin(`/workspaces/${shop.ws.id}/customers`, {
    method: "POST",
    body: { phone: "+49 151 22222222", first_name: "Jo" },
  });
  withCustomer = {
    order: await open({ customer_uuid: imported.body.uuid }),
    customer: imported.body.uuid,
  };
  created.push(withCustomer.order);
  const branch = await createLocation(shop.ws, { name: "Branch 2" });
  const seller = await createStaffer(shop.ws, [branch.uuid], { permissions: ["access-pos"] });
  await createAccount(shop.ws, branch.uuid, "cash");
  other = {
    location: branch.uuid,
    seller: seller.uuid,
    order: await open({ location_uuid: branch.uuid, staffer_uuid: seller.uuid }),
  };
  created.push(other.order);
});

const uuids = (body: { data: { uuid: string }[] }) => body.data.map((o) => o.uuid);

describe("GET /orders", () => {
  it("lists POS orders only, newest first, with full order objects", async () => {
    const res = await shop.ws.api("/orders");
    expect(res.status).toBe(200);
    expect(uuids(res.body)).toEqual([...created].reverse());
    expect(res.body.meta).toMatchObject({ total: 5, per_page: 15, current_page: 1, last_page: 1 });
    const detail = await shop.ws.api(`/orders/${withCustomer.order}`);
    expect(res.body.data.find((o: { uuid: string }) => o.uuid === withCustomer.order)).toEqual(
      detail.body,
    );
    expect(d1RoundTrips(res.headers)).toBeLessThanOrEqual(3);
  });

  it("filters by status, location, seller, customer and creation time", async () => {
    expect(uuids((await shop.ws.api("/orders?status=paid")).body)).toEqual([paid]);
    expect(uuids((await shop.ws.api("/orders?status=open")).body)).not.toContain(paid);
    expect(uuids((await shop.ws.api(`/orders?location_uuid=${other.location}`)).body)).toEqual([
      other.order,
    ]);
    expect(uuids((await shop.ws.api(`/orders?staffer_uuid=${other.seller}`)).body)).toEqual([
      other.order,
    ]);
    expect(
      uuids((await shop.ws.api(`/orders?customer_uuid=${withCustomer.customer}`)).body),
    ).toEqual([withCustomer.order]);
    const future = await shop.ws.api("/orders?created_at_from=2100-01-01T00:00:00Z");
    expect(future.body.data).toEqual([]);
    const past = await shop.ws.api("/orders?created_at_to=2000-01-01T00:00:00Z");
    expect(past.body.data).toEqual([]);
    // Filter bounds are instants like any other: whole seconds (the next one, to include now).
    const now = new Date(Math.ceil(Date.now() / 1000) * 1000).toISOString();
    expect((await shop.ws.api(`/orders?created_at_to=${now}`)).body.meta.total).toBe(5);
  });

  it("pages with the reference's envelope", async () => {
    const first = await shop.ws.api("/orders?per_page=2");
    expect(first.body.data).toHaveLength(2);
    expect(first.body.meta).toMatchObject({ total: 5, last_page: 3, from: 1, to: 2 });
    const last = await shop.ws.api("/orders?per_page=2&page=3");
    expect(uuids(last.body)).toEqual([created[0]]);
    const past = await shop.ws.api("/orders?limit=2&page=9");
    expect(past.body.data).toEqual([]);
    expect(past.body.links.next).toBeNull();
  });

  it.each([
    "per_page=0",
    "per_page=101",
    "per_page=abc",
    "status=done",
    "location_uuid=nope",
    "created_at_from=yesterday",
  ])("rejects %s with 422", async (query) => {
    const res = await shop.ws.api(`/orders?${query}`);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("validation_failed");
  });

  it("shows nothing of another workspace", async () => {
    const stranger = await createShop();
    const res = await stranger.ws.api("/orders");
    expect(res.body.data).toEqual([]);
    expect(
      (await stranger.ws.api(`/orders?location_uuid=${shop.location.uuid}`)).body.data,
    ).toEqual([]);
  });
});
