import { beforeAll, describe, expect, it } from "vitest";
import { createLocation, createWorkspace } from "../helpers/factory";
import { send } from "../helpers/http";
import {
  createAccount,
  createPromocode,
  createShop,
  openOrder,
  payOrder,
  type Shop,
  sellVouchers,
} from "../helpers/shop";
import { everyShard } from "../helpers/every-shard";

let shop: Shop;
beforeAll(async () => {
  shop = await createShop();
});

const cancel = (orderId: string) =>
  shop.ws.api(`/orders/${orderId}/cancel`, { method: "POST", body: {} });
const refund = (orderId: string, body: Record<string, unknown> = {}) =>
  shop.ws.api(`/orders/${orderId}/refund`, { method: "POST", body });
const balanceOf = async (accountId: string) =>
  (
    await everyShard
      .prepare("select balance from accounts where id = ?")
      .bind(accountId)
      .first<{ balance: number }>()
  )?.balance ?? 0;
const stockOf = async (goodId: string) =>
  (
    await everyShard
      .prepare("select quantity from good_stocks where good_id = ? and location_id = ?")
      .bind(goodId, shop.location.uuid)
      .first<{ quantity: number }>()
  )?.quantity ?? 0;
const eventsOf = async (type: string, orderId: string) =>
  (
    await everyShard
      .prepare(
        "select count(*) as n from events where type = ? and json_extract(payload, '$.uuid') = ?",
      )
      .bind(type, orderId)
      .first<{ n: number }>()
  )?.n;
const shampoo = (quantity = 1, price = 1000) => ({
  goods: [{ good_uuid: shop.shampoo.uuid, price, quantity }],
});

describe("POST /orders/{uuid}/cancel", () => {
  it("cancels an open order, frees its promocode use and records order-cancelled", async () => {
    await createPromocode(shop.ws, { code: "SINGLE", discount_amount: 100, max_uses: 1 });
    const order = await openOrder(shop, { ...shampoo(), promocode: "SINGLE" });
    const second = await shop.ws.api("/orders", {
      method: "POST",
      body: {
        location_uuid: shop.location.uuid,
        staffer_uuid: shop.seller.uuid,
        ...shampoo(),
        promocode: "SINGLE",
      },
    });
    expect(second.status).toBe(422);
    const res = await cancel(order.uuid);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ uuid: order.uuid, status: "cancelled", is_reverted: false });
    expect(await eventsOf("order-cancelled", order.uuid)).toBe(1);
    // The code's one use is free again.
    await openOrder(shop, { ...shampoo(), promocode: "SINGLE" });
    const listed = await shop.ws.api("/orders?status=cancelled");
    expect(listed.body.data.map((o: { uuid: string }) => o.uuid)).toContain(order.uuid);
    expect((await shop.ws.api(`/orders/${order.uuid}`)).body).toEqual(res.body);
  });

  it("answers 409 order_not_open for a paid or cancelled order, and cannot pay a cancelled one", async () => {
    const paid = await openOrder(shop, shampoo());
    expect((await payOrder(shop, paid.uuid, { account_uuid: shop.cash.uuid })).status).toBe(200);
    const late = await cancel(paid.uuid);
    expect(late.status).toBe(409);
    expect(late.body).toEqual({
      message: "Only an open order can be cancelled.",
      code: "order_not_open",
    });
    const gone = await openOrder(shop, shampoo());
    expect((await cancel(gone.uuid)).status).toBe(200);
    expect((await cancel(gone.uuid)).body.code).toBe("order_not_open");
    const payLate = await payOrder(shop, gone.uuid, { account_uuid: shop.cash.uuid });
    expect(payLate.status).toBe(409);
    expect(payLate.body.code).toBe("order_not_open");
  });

  it("is 404 for another workspace's order, 401 without a key", async () => {
    const order = await openOrder(shop, shampoo());
    const other = await createWorkspace();
    expect(
      (await other.api(`/orders/${order.uuid}/cancel`, { method: "POST", body: {} })).status,
    ).toBe(404);
    expect(
      (await send(`/api/public/v2/orders/${order.uuid}/cancel`, { method: "POST", body: {} }))
        .status,
    ).toBe(401);
    expect((await shop.ws.api(`/orders/${order.uuid}`)).body.status).toBe("open");
  });
});

describe("POST /orders/{uuid}/refund", () => {
  it("debits the account, returns the goods and records order-refunded", async () => {
    const stock = await stockOf(shop.shampoo.uuid);
    const cash = await balanceOf(shop.cash.uuid);
    const order = await openOrder(shop, shampoo(3, 1250));
    const paid = await payOrder(shop, order.uuid, { account_uuid: shop.cash.uuid });
    expect(paid.status).toBe(200);
    expect(await stockOf(shop.shampoo.uuid)).toBe(stock - 3);
    const res = await refund(order.uuid, { reason: "Allergic" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      status: "refunded",
      is_reverted: true,
      refund_reason: "Allergic",
      account_paid_amount: -3750,
    });
    expect(await stockOf(shop.shampoo.uuid)).toBe(stock);
    expect(await balanceOf(shop.cash.uuid)).toBe(cash);
    const tx = await everyShard
      .prepare(
        "select amount from account_transactions where order_id = ? order by created_at, amount desc",
      )
      .bind(order.uuid)
      .all<{ amount: number }>();
    expect(tx.results.map((t) => t.amount).sort()).toEqual([-3750, 3750]);
    expect(await eventsOf("order-refunded", order.uuid)).toBe(1);
    const again = await refund(order.uuid);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      message: "Only a paid order can be refunded.",
      code: "order_not_paid",
    });
    expect((await shop.ws.api(`/orders/${order.uuid}`)).body).toEqual(res.body);
  });

  it("refunds out of another till of the branch when asked", async () => {
    const order = await openOrder(shop, shampoo(1, 700));
    expect((await payOrder(shop, order.uuid, { account_uuid: shop.cash.uuid })).status).toBe(200);
    const card = await balanceOf(shop.card.uuid);
    expect((await refund(order.uuid, { account_uuid: shop.card.uuid })).status).toBe(200);
    expect(await balanceOf(shop.card.uuid)).toBe(card - 700);
  });

  it("refuses an open order (409), a bad account or reason (422), and leaves the order paid", async () => {
    const open = await openOrder(shop, shampoo());
    expect((await refund(open.uuid)).body.code).toBe("order_not_paid");
    const order = await openOrder(shop, shampoo());
    expect((await payOrder(shop, order.uuid, { account_uuid: shop.cash.uuid })).status).toBe(200);
    const elsewhere = await createLocation(shop.ws, { name: "Refund branch" });
    const remote = await createAccount(shop.ws, elsewhere.uuid, "cash");
    const branch = await refund(order.uuid, { account_uuid: remote.uuid });
    expect(branch.status).toBe(422);
    expect(branch.body.errors).toEqual({
      account_uuid: ["The account belongs to another branch."],
    });
    const foreign = await createShop();
    expect((await refund(order.uuid, { account_uuid: foreign.cash.uuid })).body.errors).toEqual({
      account_uuid: ["Unknown account."],
    });
    const long = await refund(order.uuid, { reason: "x".repeat(1001) });
    expect(long.status).toBe(422);
    expect(long.body.errors).toHaveProperty("reason");
    expect((await shop.ws.api(`/orders/${order.uuid}`)).body.status).toBe("paid");
    const tx = await everyShard
      .prepare("select count(*) as n from account_transactions where order_id = ?")
      .bind(order.uuid)
      .first<{ n: number }>();
    expect(tx?.n).toBe(1);
  });

  it("checks an account it was given even when the order was paid by vouchers alone", async () => {
    const { codes } = await sellVouchers(shop, 1, 5000);
    const order = await openOrder(shop, shampoo());
    const paid = await payOrder(shop, order.uuid, { vouchers: [{ code: codes[0] }] });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    const typo = await refund(order.uuid, { account_uuid: crypto.randomUUID() });
    expect(typo.status).toBe(422);
    expect(typo.body.errors).toEqual({ account_uuid: ["Unknown account."] });
    expect((await shop.ws.api(`/orders/${order.uuid}`)).body.status).toBe("paid");
    // Without one, the vouchers are simply restored.
    expect((await refund(order.uuid)).status).toBe(200);
  });

  it("is 404 for another workspace's order and leaves it paid", async () => {
    const order = await openOrder(shop, shampoo());
    expect((await payOrder(shop, order.uuid, { account_uuid: shop.cash.uuid })).status).toBe(200);
    const other = await createWorkspace();
    expect(
      (await other.api(`/orders/${order.uuid}/refund`, { method: "POST", body: {} })).status,
    ).toBe(404);
    expect((await shop.ws.api(`/orders/${order.uuid}`)).body.status).toBe("paid");
  });
});
