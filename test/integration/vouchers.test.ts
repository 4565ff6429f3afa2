import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { failpoints } from "../../src/platform/failpoints";
import { createWorkspace } from "../helpers/factory";
import { d1RoundTrips } from "../helpers/http";
import {
  createShop,
  openOrder,
  payOrder,
  type Shop,
  sellVouchers,
  voucherOf,
} from "../helpers/shop";
import { everyShard } from "../helpers/every-shard";

let shop: Shop;
beforeAll(async () => {
  shop = await createShop();
});
afterEach(() => failpoints.disarmAll());

const balanceOf = async (accountId: string) =>
  (
    await everyShard.prepare("select balance from accounts where id = ?").bind(accountId).first<{
      balance: number;
    }>()
  )?.balance ?? 0;
const stockOf = async (goodId: string) =>
  (
    await everyShard
      .prepare("select quantity from good_stocks where good_id = ? and location_id = ?")
      .bind(goodId, shop.location.uuid)
      .first<{ quantity: number }>()
  )?.quantity ?? 0;
const refund = (orderId: string, body: Record<string, unknown> = {}) =>
  shop.ws.api(`/orders/${orderId}/refund`, { method: "POST", body });

/** A haircut booked at the shop on `date` at `hhmm` (UTC). */
async function bookCut(hhmm: string, date: string) {
  const { at, customer } = await import("../helpers/salon");
  const booking = await shop.ws.api("/bookings", {
    method: "POST",
    body: {
      location_uuid: shop.location.uuid,
      service_uuid: shop.cut.uuid,
      reserved_on: at(hhmm, date),
      ...customer(),
    },
  });
  expect(booking.status, JSON.stringify(booking.body)).toBe(201);
  return booking;
}

describe("a gift card's life: sold, spent in two parts, refunded", () => {
  it("issues one voucher per unit, spends it across two orders, restores and voids on refund", async () => {
    const cashBefore = await balanceOf(shop.cash.uuid);
    // Sold: two gift cards of 5 000 on one line.
    const sale = await openOrder(shop, {
      vouchers: [{ voucher_template_uuid: shop.giftCard.uuid, price: 5000, quantity: 2 }],
    });
    const sold = await payOrder(shop, sale.uuid, { account_uuid: shop.cash.uuid });
    expect(sold.status, JSON.stringify(sold.body)).toBe(200);
    const codes: string[] = sold.body.vouchers[0].codes;
    expect(codes).toHaveLength(2);
    expect(new Set(codes).size).toBe(2);
    for (const code of codes) expect(code).toMatch(/^[2-9A-HJ-NP-Z]{4}(-[2-9A-HJ-NP-Z]{4}){3}$/);
    expect((await shop.ws.api(`/orders/${sale.uuid}`)).body.vouchers[0].codes).toEqual(codes);
    const [code, spare] = codes as [string, string];
    expect((await shop.ws.api(`/vouchers/${code}`)).body).toEqual({
      code,
      template_uuid: shop.giftCard.uuid,
      initial_amount: 5000,
      balance: 5000,
      status: "active",
      order_uuid: sale.uuid,
    });
    // Typed back from the card, in lower case with spaces: the same voucher.
    const typed = encodeURIComponent(code.toLowerCase().replace(/-/g, " "));
    expect((await shop.ws.api(`/vouchers/${typed}`)).body.code).toBe(code);

    // Spent, part one: 3 × 1 000 of shampoo, all on the voucher.
    const first = await openOrder(shop, {
      goods: [{ good_uuid: shop.shampoo.uuid, price: 1000, quantity: 3 }],
    });
    const preview = await shop.ws.api("/orders/calculate", {
      method: "POST",
      body: {
        location_uuid: shop.location.uuid,
        goods: [{ good_uuid: shop.shampoo.uuid, price: 1000, quantity: 3 }],
        payment_vouchers: [{ code }],
      },
    });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body.voucher_payments).toEqual([{ code, amount: 3000 }]);
    expect(preview.body.invoice).toMatchObject({
      total: 3000,
      voucher_paid_amount: 3000,
      account_paid_amount: 0,
      amount_due: 0,
    });
    const paidFirst = await payOrder(shop, first.uuid, { vouchers: [{ code }] });
    expect(paidFirst.status, JSON.stringify(paidFirst.body)).toBe(200);
    expect(paidFirst.body).toMatchObject({
      status: "paid",
      voucher_paid_amount: 3000,
      account_paid_amount: 0,
      amount_due: 0,
      payment_method: "voucher",
      account_uuid: null,
    });
    expect(await voucherOf(shop, code)).toMatchObject({ balance: 2000, status: "active" });

    // Spent, part two: 4 500 of which the voucher covers its last 2 000, the card the rest.
    const second = await openOrder(shop, {
      goods: [{ good_uuid: shop.shampoo.uuid, price: 1500, quantity: 3 }],
    });
    const cardBefore = await balanceOf(shop.card.uuid);
    const stockBefore = await stockOf(shop.shampoo.uuid);
    const paidSecond = await payOrder(shop, second.uuid, {
      account_uuid: shop.card.uuid,
      vouchers: [{ code }],
    });
    expect(paidSecond.status, JSON.stringify(paidSecond.body)).toBe(200);
    expect(paidSecond.body).toMatchObject({
      voucher_paid_amount: 2000,
      account_paid_amount: -2500,
      payment_method: "card_account",
    });
    expect(await voucherOf(shop, code)).toMatchObject({ balance: 0, status: "redeemed" });
    expect(await balanceOf(shop.card.uuid)).toBe(cardBefore + 2500);

    // The second order refunded: the card gives back 2 500, the voucher gets its 2 000 back.
    const back = await refund(second.uuid, { reason: "Wrong shampoo" });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body).toMatchObject({
      status: "refunded",
      is_reverted: true,
      refund_reason: "Wrong shampoo",
    });
    expect(await voucherOf(shop, code)).toMatchObject({ balance: 2000, status: "active" });
    expect(await balanceOf(shop.card.uuid)).toBe(cardBefore);
    expect(await stockOf(shop.shampoo.uuid)).toBe(stockBefore);

    // The sale refunded: one of its vouchers has been spent, so the refund is refused whole.
    const refused = await refund(sale.uuid);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("voucher_already_used");
    expect(await voucherOf(shop, spare)).toMatchObject({ status: "active", balance: 5000 });
    expect((await shop.ws.api(`/orders/${sale.uuid}`)).body.status).toBe("paid");

    // Once the first order is refunded too, the voucher is whole again and the sale refunds.
    expect((await refund(first.uuid)).status).toBe(200);
    expect(await voucherOf(shop, code)).toMatchObject({ balance: 5000, status: "active" });
    const saleBack = await refund(sale.uuid);
    expect(saleBack.status, JSON.stringify(saleBack.body)).toBe(200);
    for (const c of codes)
      expect(await voucherOf(shop, c)).toMatchObject({ status: "void", balance: 0 });
    expect(await balanceOf(shop.cash.uuid)).toBe(cashBefore);
    // A void voucher pays nothing.
    const later = await openOrder(shop, {
      goods: [{ good_uuid: shop.shampoo.uuid, price: 100, quantity: 1 }],
    });
    const voided = await payOrder(shop, later.uuid, { vouchers: [{ code }] });
    expect(voided.status).toBe(409);
    expect(voided.body.code).toBe("voucher_unavailable");
    expect(voided.body.errors).toEqual({ "vouchers.0.code": ["The voucher is void."] });

    const listed = await shop.ws.api("/orders?status=refunded&per_page=100");
    const ids = listed.body.data.map((o: { uuid: string }) => o.uuid);
    expect(ids).toEqual(expect.arrayContaining([sale.uuid, first.uuid, second.uuid]));
    const events = await everyShard
      .prepare(
        "select count(*) as n from events where type = 'order-refunded' and json_extract(payload, '$.uuid') in (?, ?, ?)",
      )
      .bind(sale.uuid, first.uuid, second.uuid)
      .first<{ n: number }>();
    expect(events?.n).toBe(3);
  });
});

describe("GET /vouchers/{code}", () => {
  it("is 404 for another workspace's code and for anything that is not a code", async () => {
    const { codes } = await sellVouchers(shop, 1);
    const other = await createWorkspace();
    expect((await other.api(`/vouchers/${codes[0]}`)).status).toBe(404);
    expect((await shop.ws.api("/vouchers/NOT-A-CODE")).status).toBe(404);
    expect((await shop.ws.api("/vouchers/2222-2222-2222-2222")).status).toBe(404);
  });

  it("is 401 without a key", async () => {
    const { codes } = await sellVouchers(shop, 1);
    const { send } = await import("../helpers/http");
    expect((await send(`/api/public/v2/vouchers/${codes[0]}`)).status).toBe(401);
  });
});

describe("paying with vouchers: refusals leave nothing behind", () => {
  it("wants an account when the vouchers leave something to pay", async () => {
    const { codes } = await sellVouchers(shop, 1, 1000);
    const order = await openOrder(shop, {
      goods: [{ good_uuid: shop.shampoo.uuid, price: 2500, quantity: 1 }],
    });
    const res = await payOrder(shop, order.uuid, { vouchers: [{ code: codes[0] }] });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      account_uuid: ["Required: 1500 is left to pay after the vouchers."],
    });
    expect(await voucherOf(shop, codes[0] as string)).toMatchObject({ balance: 1000 });
    expect((await shop.ws.api(`/orders/${order.uuid}`)).body.status).toBe("open");
  });

  it("refuses unknown, foreign and repeated codes (422) and amounts over a balance (409)", async () => {
    const { codes } = await sellVouchers(shop, 2, 1000);
    const [a, b] = codes as [string, string];
    const foreign = await createShop();
    const { codes: theirs } = await sellVouchers(foreign, 1, 1000);
    const order = await openOrder(shop, {
      goods: [{ good_uuid: shop.shampoo.uuid, price: 2500, quantity: 1 }],
    });
    const bad = await payOrder(shop, order.uuid, {
      account_uuid: shop.cash.uuid,
      vouchers: [{ code: a }, { code: a }, { code: theirs[0] }, { code: "nonsense" }],
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({
      "vouchers.1.code": ["Listed twice."],
      "vouchers.2.code": ["Unknown voucher."],
      "vouchers.3.code": ["Unknown voucher."],
    });
    const over = await payOrder(shop, order.uuid, {
      account_uuid: shop.cash.uuid,
      vouchers: [{ code: b, amount: 1001 }],
    });
    expect(over.status).toBe(409);
    expect(over.body).toMatchObject({
      code: "voucher_unavailable",
      errors: { "vouchers.0.amount": ["More than the voucher's balance (1000)."] },
    });
    const preview = await shop.ws.api("/orders/calculate", {
      method: "POST",
      body: {
        location_uuid: shop.location.uuid,
        goods: [{ good_uuid: shop.shampoo.uuid, price: 2500, quantity: 1 }],
        payment_vouchers: [{ code: a }, { code: theirs[0] }],
      },
    });
    expect(preview.status).toBe(422);
    expect(preview.body.errors).toEqual({ "payment_vouchers.1.code": ["Unknown voucher."] });
    for (const c of [a, b]) expect(await voucherOf(shop, c)).toMatchObject({ balance: 1000 });
    const payments = await everyShard
      .prepare("select count(*) as n from voucher_payments where order_id = ?")
      .bind(order.uuid)
      .first<{ n: number }>();
    expect(payments?.n).toBe(0);
    expect((await shop.ws.api(`/orders/${order.uuid}`)).body.status).toBe("open");
  });

  it("takes at most 10 vouchers: 10 pay, 11 are refused", async () => {
    const { codes } = await sellVouchers(shop, 11, 100);
    const order = await openOrder(shop, {
      goods: [{ good_uuid: shop.shampoo.uuid, price: 1500, quantity: 1 }],
    });
    const eleven = await payOrder(shop, order.uuid, {
      account_uuid: shop.cash.uuid,
      vouchers: codes.map((code) => ({ code })),
    });
    expect(eleven.status).toBe(422);
    expect(eleven.body.errors).toHaveProperty("vouchers");
    const ten = await payOrder(shop, order.uuid, {
      account_uuid: shop.cash.uuid,
      vouchers: codes.slice(0, 10).map((code) => ({ code })),
    });
    expect(ten.status, JSON.stringify(ten.body)).toBe(200);
    expect(ten.body).toMatchObject({ voucher_paid_amount: 1000, account_paid_amount: -500 });
    for (const c of codes.slice(0, 10))
      expect(await voucherOf(shop, c)).toMatchObject({ balance: 0, status: "redeemed" });
    expect(await voucherOf(shop, codes[10] as string)).toMatchObject({ balance: 100 });
  });

  it("issues at most 100 vouchers per order: 100 are issued, 101 are refused at create", async () => {
    const line = (quantity: number) => ({
      vouchers: [{ voucher_template_uuid: shop.giftCard.uuid, price: 10, quantity }],
    });
    const tooMany = await shop.ws.api("/orders", {
      method: "POST",
      body: { location_uuid: shop.location.uuid, staffer_uuid: shop.seller.uuid, ...line(101) },
    });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.errors).toHaveProperty("vouchers");
    const { codes } = await sellVouchers(shop, 100, 10);
    expect(new Set(codes).size).toBe(100);
  });
});

describe("booking complete with vouchers", () => {
  it("takes the vouchers first and the account for the rest", async () => {
    const { codes } = await sellVouchers(shop, 1, 1000);
    const booking = await bookCut("11:00", "2030-03-06");
    const cashBefore = await balanceOf(shop.cash.uuid);
    const done = await shop.ws.api(`/bookings/${booking.body.uuid}/status/complete`, {
      method: "PUT",
      body: { account_uuid: shop.cash.uuid, vouchers: [{ code: codes[0] }] },
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    // The vouchers are read in the booking's own batch: one read, one write.
    expect(d1RoundTrips(done.headers)).toBe(2);
    const total = shop.cut.price;
    expect(await voucherOf(shop, codes[0] as string)).toMatchObject({
      balance: Math.max(0, 1000 - total),
    });
    expect(await balanceOf(shop.cash.uuid)).toBe(cashBefore + Math.max(0, total - 1000));
    const order = await everyShard
      .prepare(
        "select o.status, o.voucher_paid_amount, o.account_paid_amount from orders o join bookings b on b.order_id = o.id where b.id = ?",
      )
      .bind(booking.body.uuid)
      .first<{ status: string; voucher_paid_amount: number; account_paid_amount: number }>();
    expect(order).toEqual({
      status: "paid",
      voucher_paid_amount: Math.min(1000, total),
      account_paid_amount: Math.max(0, total - 1000),
    });
  });
});

describe("booking complete never spends a voucher beyond what the order owes", () => {
  const orderOf = (bookingId: string) =>
    everyShard
      .prepare(
        "select o.status, o.voucher_paid_amount, o.account_paid_amount from orders o join bookings b on b.order_id = o.id where b.id = ?",
      )
      .bind(bookingId)
      .first<{ status: string; voucher_paid_amount: number; account_paid_amount: number }>();

  it("a paid_amount above the total takes only the total from the voucher, the rest at the till", async () => {
    const { codes } = await sellVouchers(shop, 1, 50_000);
    const booking = await bookCut("11:00", "2030-04-08");
    const cashBefore = await balanceOf(shop.cash.uuid);
    const done = await shop.ws.api(`/bookings/${booking.body.uuid}/status/complete`, {
      method: "PUT",
      body: { account_uuid: shop.cash.uuid, paid_amount: 50_000, vouchers: [{ code: codes[0] }] },
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const total = shop.cut.price;
    expect(await voucherOf(shop, codes[0] as string)).toMatchObject({ balance: 50_000 - total });
    expect(await balanceOf(shop.cash.uuid)).toBe(cashBefore + 50_000 - total);
    expect(await orderOf(booking.body.uuid)).toEqual({
      status: "paid",
      voucher_paid_amount: total,
      account_paid_amount: 50_000 - total,
    });
  });

  it("a cart's second booking, its order already paid in full, leaves the voucher untouched", async () => {
    const { codes } = await sellVouchers(shop, 1, 50_000);
    const { at, customer } = await import("../helpers/salon");
    const cart = await shop.ws.api("/bookings/cart", {
      method: "POST",
      body: {
        location_uuid: shop.location.uuid,
        ...customer(),
        items: ["09:00", "14:00"].map((hhmm) => ({
          datetime_start: at(hhmm, "2030-05-06"),
          services: [{ service_uuid: shop.cut.uuid }],
        })),
      },
    });
    expect(cart.status, JSON.stringify(cart.body)).toBe(201);
    const [a, b] = cart.body.bookings as { uuid: string }[];
    const total = shop.cut.price * 2;
    const first = await shop.ws.api(`/bookings/${a?.uuid}/status/complete`, {
      method: "PUT",
      body: { account_uuid: shop.cash.uuid, paid_amount: total },
    });
    expect(first.status).toBe(200);
    const second = await shop.ws.api(`/bookings/${b?.uuid}/status/complete`, {
      method: "PUT",
      body: { account_uuid: shop.cash.uuid, vouchers: [{ code: codes[0] }] },
    });
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(await voucherOf(shop, codes[0] as string)).toMatchObject({
      balance: 50_000,
      status: "active",
    });
    expect((await orderOf(b?.uuid ?? ""))?.voucher_paid_amount).toBe(0);
  });
});

describe("two bookings completed with one voucher at once", () => {
  it("one spends it; the other is 409 voucher_balance_changed and stays open", async () => {
    const { codes } = await sellVouchers(shop, 1, 5000);
    const code = codes[0] as string;
    const bookings = [
      (await bookCut("10:00", "2030-03-07")).body as { uuid: string },
      (await bookCut("14:00", "2030-03-07")).body as { uuid: string },
    ];
    const cash = await balanceOf(shop.cash.uuid);
    failpoints.meet("booking.change.before_write", 2);
    const results = await Promise.all(
      bookings.map((b) =>
        shop.ws.api(`/bookings/${b.uuid}/status/complete`, {
          method: "PUT",
          body: { account_uuid: shop.cash.uuid, vouchers: [{ code }] },
        }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const lost = results.findIndex((r) => r.status === 409);
    expect(results[lost]?.body.code).toBe("voucher_balance_changed");
    expect(await voucherOf(shop, code)).toMatchObject({ balance: 5000 - shop.cut.price });
    expect(await balanceOf(shop.cash.uuid)).toBe(cash);
    const loser = bookings[lost] as { uuid: string };
    expect((await shop.ws.api(`/bookings/${loser.uuid}`)).body.is_completed).toBe(false);
  });
});
