import { failpoints } from "../../src/platform/failpoints";
import { beforeAll, describe, expect, it } from "vitest";
import { createLocation, createWorkspace } from "../helpers/factory";
import { at, customer } from "../helpers/salon";
import { createAccount, createGood, createShop, type Shop } from "../helpers/shop";
import { everyShard } from "../helpers/every-shard";

let shop: Shop;
beforeAll(async () => {
  shop = await createShop();
});

const open = async (body: Record<string, unknown>) => {
  const res = await shop.ws.api("/orders", {
    method: "POST",
    body: { location_uuid: shop.location.uuid, staffer_uuid: shop.seller.uuid, ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { uuid: string; total: number };
};
const pay = (orderId: string, accountId: string) =>
  shop.ws.api(`/orders/${orderId}/pay`, { method: "POST", body: { account_uuid: accountId } });

const stockOf = async (goodId: string) =>
  (
    await everyShard
      .prepare("select quantity from good_stocks where good_id = ? and location_id = ?")
      .bind(goodId, shop.location.uuid)
      .first<{ quantity: number }>()
  )?.quantity ?? null;
const balanceOf = async (accountId: string) =>
  (
    await everyShard
      .prepare("select balance from accounts where id = ?")
      .bind(accountId)
      .first<{ balance: number }>()
  )?.balance;

describe("POST /orders/{uuid}/pay", () => {
  it("settles an open order on a cash account and takes the goods out of stock", async () => {
    const stock = await stockOf(shop.shampoo.uuid);
    const balance = await balanceOf(shop.cash.uuid);
    const order = await open({
      goods: [{ good_uuid: shop.shampoo.uuid, price: 1250, quantity: 3 }],
      discount_mode: "percent",
      discount_percent: 10,
    });
    const res = await pay(order.uuid, shop.cash.uuid);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      uuid: order.uuid,
      status: "paid",
      payment_method: "cash_account",
      account_uuid: shop.cash.uuid,
      total: 3375,
      account_paid_amount: -3375,
      amount_due: 0,
    });
    expect(res.body.paid_at).toMatch(/Z$/);
    expect(await stockOf(shop.shampoo.uuid)).toBe((stock ?? 0) - 3);
    expect(await balanceOf(shop.cash.uuid)).toBe((balance ?? 0) + 3375);
    const goods = await shop.ws.api("/goods");
    expect(goods.body.data.find((g: { uuid: string }) => g.uuid === shop.shampoo.uuid).stock).toBe(
      (stock ?? 0) - 3,
    );
    const event = await everyShard
      .prepare(
        "select payload from events where type = 'order-paid' and json_extract(payload, '$.uuid') = ?",
      )
      .bind(order.uuid)
      .first<{ payload: string }>();
    expect(JSON.parse(event?.payload ?? "null")).toEqual(res.body);
    expect((await shop.ws.api(`/orders/${order.uuid}`)).body).toEqual(res.body);
  });

  it("derives card_account from a card till and lets stock go below zero", async () => {
    const order = await open({ goods: [{ good_uuid: shop.wax.uuid, price: 899, quantity: 3 }] });
    const res = await pay(order.uuid, shop.card.uuid);
    expect(res.status).toBe(200);
    expect(res.body.payment_method).toBe("card_account");
    // One in stock, three sold: the till shows the miscount instead of refusing the sale.
    expect(await stockOf(shop.wax.uuid)).toBe(-2);
  });

  it("creates the stock row of a good never stocked at the branch", async () => {
    const comb = await createGood(shop.ws, { name: "Comb", article: "CB-1", price: 300 });
    const order = await open({ goods: [{ good_uuid: comb.uuid, price: 300, quantity: 2 }] });
    expect((await pay(order.uuid, shop.cash.uuid)).status).toBe(200);
    expect(await stockOf(comb.uuid)).toBe(-2);
  });

  it("answers 409 order_not_open for an order already paid", async () => {
    const order = await open({
      vouchers: [{ voucher_template_uuid: shop.giftCard.uuid, price: 5000, quantity: 1 }],
    });
    expect((await pay(order.uuid, shop.cash.uuid)).status).toBe(200);
    const again = await pay(order.uuid, shop.cash.uuid);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      message: "Only an open order can be paid.",
      code: "order_not_open",
    });
  });

  it("pays once when many tills pay the same order at once", async () => {
    const stock = await stockOf(shop.shampoo.uuid);
    const balance = await balanceOf(shop.cash.uuid);
    const order = await open({
      goods: [{ good_uuid: shop.shampoo.uuid, price: 1000, quantity: 1 }],
    });
    // All eight read the open order before any writes: only the guard can stop seven of them.
    failpoints.meet("orders.pay.before_write", 8);
    const refusedBefore = failpoints.hits("orders.pay.guard_refused");
    const results = await Promise.all(
      Array.from({ length: 8 }, () => pay(order.uuid, shop.cash.uuid)),
    );
    expect(failpoints.hits("orders.pay.guard_refused") - refusedBefore).toBe(7);
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(7);
    expect(await stockOf(shop.shampoo.uuid)).toBe((stock ?? 0) - 1);
    expect(await balanceOf(shop.cash.uuid)).toBe((balance ?? 0) + 1000);
    const tx = await everyShard
      .prepare("select count(*) as n from account_transactions where order_id = ?")
      .bind(order.uuid)
      .first<{ n: number }>();
    expect(tx?.n).toBe(1);
  });

  it("refuses a QR account with 422 account_requires_action", async () => {
    const order = await open({
      goods: [{ good_uuid: shop.shampoo.uuid, price: 1000, quantity: 1 }],
    });
    const res = await pay(order.uuid, shop.qr.uuid);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("account_requires_action");
    expect(res.body.errors).toHaveProperty("account_uuid");
    const online = await createAccount(shop.ws, shop.location.uuid, "online");
    expect((await pay(order.uuid, online.uuid)).body.code).toBe("account_requires_action");
    expect((await shop.ws.api(`/orders/${order.uuid}`)).body.status).toBe("open");
  });

  it("refuses an account of another branch or workspace, or none at all", async () => {
    const order = await open({
      goods: [{ good_uuid: shop.shampoo.uuid, price: 1000, quantity: 1 }],
    });
    const elsewhere = await createLocation(shop.ws, { name: "Other branch" });
    const remote = await createAccount(shop.ws, elsewhere.uuid, "cash");
    const branch = await pay(order.uuid, remote.uuid);
    expect(branch.status).toBe(422);
    expect(branch.body.errors.account_uuid).toEqual(["The account belongs to another branch."]);
    const foreign = await createShop();
    expect((await pay(order.uuid, foreign.cash.uuid)).body.errors.account_uuid).toEqual([
      "Unknown account.",
    ]);
    const missing = await shop.ws.api(`/orders/${order.uuid}/pay`, { method: "POST", body: {} });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toHaveProperty("account_uuid");
  });

  it("refuses an order with a booking-linked service with 422", async () => {
    const booking = await shop.ws.api("/bookings", {
      method: "POST",
      body: {
        location_uuid: shop.location.uuid,
        service_uuid: shop.cut.uuid,
        reserved_on: at("10:00", "2030-03-05"),
        ...customer(),
      },
    });
    expect(booking.status, JSON.stringify(booking.body)).toBe(201);
    const order = await open({
      services: [
        { service_uuid: shop.cut.uuid, price: 3500, quantity: 1, booking_uuid: booking.body.uuid },
      ],
    });
    const res = await pay(order.uuid, shop.cash.uuid);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("order_has_booked_services");
    const seen = await shop.ws.api(`/orders/${order.uuid}`);
    expect(seen.body).toMatchObject({ status: "open", booking_uuids: [booking.body.uuid] });
  });

  it("is 404 for another workspace's order and leaves it open", async () => {
    const order = await open({
      goods: [{ good_uuid: shop.shampoo.uuid, price: 1000, quantity: 1 }],
    });
    const other = await createWorkspace();
    const res = await other.api(`/orders/${order.uuid}/pay`, {
      method: "POST",
      body: { account_uuid: shop.cash.uuid },
    });
    expect(res.status).toBe(404);
    expect((await shop.ws.api(`/orders/${order.uuid}`)).body.status).toBe("open");
  });

  it("leaves the order open and the stock untouched when the write fails", async () => {
    const stock = await stockOf(shop.shampoo.uuid);
    const balance = await balanceOf(shop.cash.uuid);
    const order = await open({
      goods: [{ good_uuid: shop.shampoo.uuid, price: 1000, quantity: 2 }],
    });
    await everyShard.exec(
      "CREATE TRIGGER fail_tx BEFORE INSERT ON account_transactions BEGIN SELECT RAISE(ABORT, 'injected'); END",
    );
    try {
      expect((await pay(order.uuid, shop.cash.uuid)).status).toBe(500);
    } finally {
      await everyShard.exec("DROP TRIGGER fail_tx");
    }
    expect((await shop.ws.api(`/orders/${order.uuid}`)).body.status).toBe("open");
    expect(await stockOf(shop.shampoo.uuid)).toBe(stock);
    expect(await balanceOf(shop.cash.uuid)).toBe(balance);
    expect((await pay(order.uuid, shop.cash.uuid)).status).toBe(200);
  });
});
