import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { failpoints } from "../../src/platform/failpoints";
import { everyShard } from "../helpers/every-shard";
import { createCustomer, createPackageTemplate, type TestPackage } from "../helpers/packages";
import { at, createSalon, customer } from "../helpers/salon";
import { createShop, openOrder, payOrder, type Shop } from "../helpers/shop";

/**
 * Selling packages through POS orders: package lines on create and
 * calculate, paying issues one customer package per unit (first credits,
 * `package-issued`), a refund voids the unused ones, and a refund racing a
 * booking that takes a credit: exactly one wins.
 */

let shop: Shop;
let anna: string;
const ANNA = "+49 151 23456789";
let tenCuts: TestPackage;
let monthly: TestPackage;
let retired: TestPackage;
let dollars: TestPackage;
let foreign: TestPackage;

const count = async (sql: string, ...binds: unknown[]) =>
  (
    await everyShard
      .prepare(sql)
      .bind(...binds)
      .first<{ n: number }>()
  )?.n ?? 0;
const balanceOf = async (accountId: string) =>
  (
    await everyShard.prepare("select balance from accounts where id = ?").bind(accountId).first<{
      balance: number;
    }>()
  )?.balance ?? 0;
const packagesOfOrder = (orderId: string) =>
  count("select count(*) as n from customer_packages where order_id = ?", orderId);
const ordersOfWorkspace = () =>
  count("select count(*) as n from orders where workspace_id = ?", shop.ws.id);
const statusOf = async (id: string) => (await shop.ws.api(`/customer-packages/${id}`)).body.status;
const creditsOf = (id: string) =>
  everyShard
    .prepare(
      "select total, used, reserved from customer_package_credits where customer_package_id = ? order by position",
    )
    .bind(id)
    .all<{ total: number; used: number; reserved: number }>()
    .then((r) => r.results);

const line = (pkg: { uuid: string }, price: number, quantity = 1) => ({
  package_uuid: pkg.uuid,
  price,
  quantity,
});

/** An open order selling `lines` to Anna (201 asserted). */
const sell = (lines: Record<string, unknown>[], extra: Record<string, unknown> = {}) =>
  openOrder(shop, { customer_uuid: anna, packages: lines, ...extra }) as Promise<{
    uuid: string;
    total: number;
    packages: { customer_package_uuids: string[] }[];
  }>;

/** A package of ten cuts sold and paid in cash: the order and the package's uuid. */
async function soldPackage() {
  const order = await sell([line(tenCuts, 30000)]);
  const paid = await payOrder(shop, order.uuid, { account_uuid: shop.cash.uuid });
  expect(paid.status, JSON.stringify(paid.body)).toBe(200);
  const [id] = paid.body.packages[0].customer_package_uuids as string[];
  if (!id) throw new Error("nothing issued");
  return { order: order.uuid, id };
}

let week = 0;
/** A fresh Monday ahead for each booking (within the packages' year of validity). */
const nextMonday = () => {
  week += 1;
  const day = 86_400_000;
  const today = Math.floor(Date.now() / day) * day;
  // 1970-01-01 was a Thursday: days since then, plus 3, modulo 7 is 0 on Mondays.
  const toMonday = (7 - ((today / day + 3) % 7)) % 7 || 7;
  return new Date(today + (toMonday + week * 7) * day).toISOString().slice(0, 10);
};
const bookWith = (packageId: string, hhmm = "10:00") =>
  shop.ws.api("/bookings", {
    method: "POST",
    body: {
      location_uuid: shop.location.uuid,
      service_uuid: shop.cut.uuid,
      reserved_on: at(hhmm, nextMonday()),
      ...customer(ANNA),
      customer_package_uuid: packageId,
    },
  });
/** The refund won: the package void, neither credit taken, no use row written. */
async function expectVoidNothingHeld(id: string) {
  expect(await statusOf(id)).toBe("void");
  expect(await creditsOf(id)).toMatchObject([
    { used: 0, reserved: 0 },
    { used: 0, reserved: 0 },
  ]);
  expect(
    await count("select count(*) as n from package_credit_uses where customer_package_id = ?", id),
  ).toBe(0);
}

const refund = (orderId: string) =>
  shop.ws.api(`/orders/${orderId}/refund`, { method: "POST", body: {} });

afterEach(() => failpoints.disarmAll());

beforeAll(async () => {
  shop = await createShop();
  anna = await createCustomer(shop.ws, ANNA);
  const credits = [
    { service_uuids: [shop.cut.uuid], count: 10 },
    { service_uuids: [shop.colour.uuid], count: 2 },
  ];
  tenCuts = await createPackageTemplate(shop.ws, { name: "Ten cuts", price: 30000, credits });
  monthly = await createPackageTemplate(shop.ws, {
    name: "Monthly",
    price: 9000,
    valid_days: 31,
    credits: [{ service_uuids: [shop.cut.uuid], count: 4 }],
    renews: { every: "month" },
  });
  retired = await createPackageTemplate(shop.ws, { name: "Retired", credits });
  const patched = await shop.ws.api(`/packages/${retired.uuid}`, {
    method: "PATCH",
    body: { live: false },
  });
  expect(patched.status, JSON.stringify(patched.body)).toBe(200);
  dollars = await createPackageTemplate(shop.ws, { name: "In dollars", currency: "USD", credits });
  const other = await createSalon(1);
  foreign = await createPackageTemplate(other.ws, {
    credits: [{ service_uuids: [other.cut.uuid], count: 1 }],
  });
});

describe("package lines on POST /orders and /orders/calculate", () => {
  it("opens an order with a package line (no tax: a prepayment), rendered with no packages issued yet", async () => {
    const order = await sell([line(tenCuts, 28000, 2)]);
    expect(order).toMatchObject({
      status: "open",
      total: 56000,
      taxes: [],
      packages: [
        {
          package_uuid: tenCuts.uuid,
          name: "Ten cuts",
          price: 28000,
          quantity: 2,
          staffer_uuid: shop.seller.uuid,
          customer_package_uuids: [],
        },
      ],
    });
    expect((await shop.ws.api(`/orders/${order.uuid}`)).body.packages).toEqual(order.packages);
  });

  it("calculates an invoice with package lines beside goods", async () => {
    const res = await shop.ws.api("/orders/calculate", {
      method: "POST",
      body: {
        location_uuid: shop.location.uuid,
        packages: [line(tenCuts, 30000, 2)],
        goods: [{ good_uuid: shop.shampoo.uuid, price: 1250, quantity: 1 }],
        discount_amount: 1000,
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.invoice).toMatchObject({ base_amount: 61250, discount_amount: -1000 });
  });

  describe("422, nothing written", () => {
    const refusedCreate = async (body: Record<string, unknown>, field: string) => {
      const before = await ordersOfWorkspace();
      const res = await shop.ws.api("/orders", {
        method: "POST",
        body: { location_uuid: shop.location.uuid, staffer_uuid: shop.seller.uuid, ...body },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expect(res.body.code).toBe("validation_failed");
      expect(Object.keys(res.body.errors)).toEqual([field]);
      expect(await ordersOfWorkspace()).toBe(before);
      return res.body.errors[field] as string[];
    };
    const refusedCalculate = async (body: Record<string, unknown>, field: string) => {
      const res = await shop.ws.api("/orders/calculate", {
        method: "POST",
        body: { location_uuid: shop.location.uuid, ...body },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual([field]);
      return res.body.errors[field] as string[];
    };

    it.each([
      ["unknown", () => crypto.randomUUID(), "Unknown package."],
      ["another workspace's", () => foreign.uuid, "Unknown package."],
      ["not live", () => retired.uuid, "This package is not for sale (not live)."],
      ["in another currency", () => dollars.uuid, "priced in USD"],
    ])("a template %s: on packages.i.package_uuid", async (_, id, message) => {
      const packages = [line(tenCuts, 100), { package_uuid: id(), price: 100, quantity: 1 }];
      const created = await refusedCreate(
        { customer_uuid: anna, packages },
        "packages.1.package_uuid",
      );
      expect(created.join(" ")).toContain(message);
      const calculated = await refusedCalculate({ packages }, "packages.1.package_uuid");
      expect(calculated.join(" ")).toContain(message);
    });

    it("no customer: on customer_uuid", async () => {
      const errors = await refusedCreate({ packages: [line(tenCuts, 100)] }, "customer_uuid");
      expect(errors).toEqual(["An order selling packages must name the customer they are for."]);
    });

    it.each([
      [0, "packages.0.quantity"],
      [10_001, "packages.0.quantity"],
    ])("quantity %i: on %s", async (quantity, field) => {
      await refusedCreate({ customer_uuid: anna, packages: [line(tenCuts, 100, quantity)] }, field);
      await refusedCalculate({ packages: [line(tenCuts, 100, quantity)] }, field);
    });

    it("a price past the bound: on packages.0.price", async () => {
      await refusedCreate(
        { customer_uuid: anna, packages: [line(tenCuts, 10 ** 12)] },
        "packages.0.price",
      );
    });

    it("more than 20 packages in one order: on packages", async () => {
      await refusedCreate(
        { customer_uuid: anna, packages: [line(tenCuts, 100, 20), line(tenCuts, 100, 1)] },
        "packages",
      );
      // 20 is the most.
      await sell([line(tenCuts, 100, 20)]);
    });
  });
});

describe("paying an order with package lines", () => {
  it("issues one package per unit to the customer, each at its unit's share, with first credits and package-issued", async () => {
    const cashBefore = await balanceOf(shop.cash.uuid);
    // 3 × 10 000 less a discount of 1 000: 29 000 paid, split 9 667 / 9 667 / 9 666.
    const order = await sell([line(tenCuts, 10000, 3)], {
      discount_mode: "fixed",
      discount_amount: 1000,
    });
    const paid = await payOrder(shop, order.uuid, { account_uuid: shop.cash.uuid });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body.total).toBe(29000);
    const ids: string[] = paid.body.packages[0].customer_package_uuids;
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3);
    expect(await balanceOf(shop.cash.uuid)).toBe(cashBefore + 29000);
    // The stored order renders them too.
    expect(
      (await shop.ws.api(`/orders/${order.uuid}`)).body.packages[0].customer_package_uuids,
    ).toEqual(ids);
    const listed = await shop.ws.api(`/orders?customer_uuid=${anna}&per_page=100`);
    const inList = listed.body.data.find((o: { uuid: string }) => o.uuid === order.uuid);
    expect(inList.packages[0].customer_package_uuids).toEqual(ids);

    for (const id of ids) {
      const pkg = await shop.ws.api(`/customer-packages/${id}`);
      expect(pkg.status, JSON.stringify(pkg.body)).toBe(200);
      expect(pkg.body).toMatchObject({
        uuid: id,
        package_uuid: tenCuts.uuid,
        customer_uuid: anna,
        status: "active",
        credits: [
          { service_uuids: [shop.cut.uuid], total: 10, used: 0, reserved: 0 },
          { service_uuids: [shop.colour.uuid], total: 2, used: 0, reserved: 0 },
        ],
      });
    }
    const prices = await everyShard
      .prepare("select price from customer_packages where order_id = ? order by price desc")
      .bind(order.uuid)
      .all<{ price: number }>();
    expect(prices.results.map((r) => r.price)).toEqual([9667, 9667, 9666]);
    const events = await everyShard
      .prepare(
        "select json_extract(payload, '$.uuid') as uuid from events where workspace_id = ? and type = 'package-issued' and json_extract(payload, '$.uuid') in (select value from json_each(?))",
      )
      .bind(shop.ws.id, JSON.stringify(ids))
      .all<{ uuid: string }>();
    expect(events.results.map((e) => e.uuid).sort()).toEqual([...ids].sort());
    const listedForAnna = await shop.ws.api(
      `/customer-packages?customer_uuid=${anna}&per_page=100`,
    );
    const mine = listedForAnna.body.data.map((p: { uuid: string }) => p.uuid);
    for (const id of ids) expect(mine).toContain(id);
  });

  it("a membership line at the till: 409 card_required, nothing written", async () => {
    const cashBefore = await balanceOf(shop.cash.uuid);
    const order = await sell([line(tenCuts, 30000), line(monthly, 9000)]);
    const events = () =>
      count(
        "select count(*) as n from events where workspace_id = ? and type in ('order-paid', 'package-issued') and (json_extract(payload, '$.uuid') = ? or json_extract(payload, '$.order_uuid') = ?)",
        shop.ws.id,
        order.uuid,
        order.uuid,
      );
    const res = await payOrder(shop, order.uuid, { account_uuid: shop.cash.uuid });
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(res.body.code).toBe("card_required");
    expect((await shop.ws.api(`/orders/${order.uuid}`)).body.status).toBe("open");
    expect(await packagesOfOrder(order.uuid)).toBe(0);
    expect(await balanceOf(shop.cash.uuid)).toBe(cashBefore);
    expect(await events()).toBe(0);
  });
});

describe("refunding an order that sold packages", () => {
  it("voids every package it issued when none is used", async () => {
    const order = await sell([line(tenCuts, 30000, 2)]);
    const paid = await payOrder(shop, order.uuid, { account_uuid: shop.cash.uuid });
    const ids: string[] = paid.body.packages[0].customer_package_uuids;
    const res = await refund(order.uuid);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.status).toBe("refunded");
    expect(res.body.packages[0].customer_package_uuids).toEqual(ids);
    for (const id of ids) expect(await statusOf(id)).toBe("void");
    // A void package pays for nothing.
    const booked = await bookWith(ids[0] as string);
    expect(booked.status, JSON.stringify(booked.body)).toBe(409);
    expect(booked.body.code).toBe("package_unavailable");
  });

  it("a package held by a booking: 409 package_already_used, nothing changes; once given back, the refund voids it", async () => {
    const { order, id } = await soldPackage();
    const booked = await bookWith(id);
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    const cashBefore = await balanceOf(shop.cash.uuid);
    const held = await refund(order);
    expect(held.status, JSON.stringify(held.body)).toBe(409);
    expect(held.body.code).toBe("package_already_used");
    expect((await shop.ws.api(`/orders/${order}`)).body.status).toBe("paid");
    expect(await statusOf(id)).toBe("active");
    expect(await balanceOf(shop.cash.uuid)).toBe(cashBefore);
    // Once the booking gave the credit back, nothing is touched: the refund goes through.
    const cancelled = await shop.ws.api(`/bookings/${booked.body.uuid}/status/cancel`, {
      method: "PUT",
      body: {},
    });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(await creditsOf(id)).toMatchObject([
      { used: 0, reserved: 0 },
      { used: 0, reserved: 0 },
    ]);
    expect((await refund(order)).status).toBe(200);
    expect(await statusOf(id)).toBe("void");
  });

  it("a package whose credit was used (booking completed): 409 package_already_used", async () => {
    const { order, id } = await soldPackage();
    const booked = await bookWith(id, "09:00");
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    const completed = await shop.ws.api(`/bookings/${booked.body.uuid}/status/complete`, {
      method: "PUT",
      body: { paid_amount: 0 },
    });
    expect(completed.status, JSON.stringify(completed.body)).toBe(200);
    expect((await creditsOf(id))[0]).toMatchObject({ used: 1, reserved: 0 });
    const res = await refund(order);
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(res.body.code).toBe("package_already_used");
    expect(await statusOf(id)).not.toBe("void");
    expect((await shop.ws.api(`/orders/${order}`)).body.status).toBe("paid");
  });

  /** Starts `first`, lets it read and stop at `stop` (nobody else comes: it waits out the meeting), runs `second` meanwhile. */
  const interleaved = async <A, B>(
    stop: string,
    first: () => Promise<A>,
    second: () => Promise<B>,
  ) => {
    failpoints.meet(stop, 2, 1500);
    const held = first();
    await new Promise((r) => setTimeout(r, 300));
    const done = await second();
    return [await held, done] as const;
  };

  it("a booking taking a credit after the refund read the package untouched: the refund's guard refuses, 409, nothing written", async () => {
    const { order, id } = await soldPackage();
    const cashBefore = await balanceOf(shop.cash.uuid);
    const refused = failpoints.hits("orders.refund.guard_refused");
    const [refunded, booked] = await interleaved(
      "orders.refund.before_write",
      () => refund(order),
      () => bookWith(id, "12:00"),
    );
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(409);
    expect(refunded.body.code).toBe("package_already_used");
    expect(failpoints.hits("orders.refund.guard_refused") - refused).toBe(1);
    expect(await statusOf(id)).toBe("active");
    expect((await creditsOf(id))[0]).toMatchObject({ used: 0, reserved: 1 });
    expect((await shop.ws.api(`/orders/${order}`)).body.status).toBe("paid");
    expect(await balanceOf(shop.cash.uuid)).toBe(cashBefore);
  });

  it("a refund voiding the package after a booking read it active: the booking's guard refuses, 409 package_unavailable", async () => {
    const { order, id } = await soldPackage();
    const [booked, refunded] = await interleaved(
      "booking.create.read",
      () => bookWith(id, "13:00"),
      () => refund(order),
    );
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
    expect(booked.status, JSON.stringify(booked.body)).toBe(409);
    expect(booked.body.code).toBe("package_unavailable");
    await expectVoidNothingHeld(id);
  });

  it("a refund and a booking taking a credit at the same moment: exactly one wins, counts consistent", async () => {
    const outcomes = { refunded: 0, booked: 0 };
    for (let round = 0; round < 6; round++) {
      const { order, id } = await soldPackage();
      const [refunded, booked] = await Promise.all([refund(order), bookWith(id, "11:00")]);
      const credits = await creditsOf(id);
      const status = await statusOf(id);
      const orderStatus = (await shop.ws.api(`/orders/${order}`)).body.status;
      if (refunded.status === 200) {
        outcomes.refunded++;
        expect(booked.status, JSON.stringify(booked.body)).toBe(409);
        expect(booked.body.code).toBe("package_unavailable");
        expect(orderStatus).toBe("refunded");
        await expectVoidNothingHeld(id);
      } else {
        outcomes.booked++;
        expect(refunded.status, JSON.stringify(refunded.body)).toBe(409);
        expect(refunded.body.code).toBe("package_already_used");
        expect(booked.status, JSON.stringify(booked.body)).toBe(201);
        expect(status).toBe("active");
        expect(orderStatus).toBe("paid");
        expect(credits[0]).toMatchObject({ used: 0, reserved: 1 });
      }
    }
    expect(outcomes.refunded + outcomes.booked).toBe(6);
    console.log("refund vs booking, winners:", outcomes);
  });
});
