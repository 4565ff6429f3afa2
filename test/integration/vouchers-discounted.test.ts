import { beforeAll, describe, expect, it } from "vitest";
import {
  createPromocode,
  createShop,
  openOrder,
  payOrder,
  type Shop,
  sellVouchers,
  voucherOf,
} from "../helpers/shop";
import { everyShard } from "../helpers/every-shard";

// A voucher sold on a discounted order is worth what was paid for it: the order's discount
// is spread over its lines in proportion to their totals (largest remainder), and a voucher
// line's share over its units (largest remainder, earlier units first).

let shop: Shop;
beforeAll(async () => {
  shop = await createShop();
  await createPromocode(shop.ws, { code: "THIRTYSEVEN", discount_percent: 37 });
  await createPromocode(shop.ws, { code: "FREE", discount_percent: 100 });
  await createPromocode(shop.ws, { code: "MINUS779", discount_amount: 779 });
});

/** Three lines with awkward totals: 3 × 3 333 and 2 × 1 001 of gift cards, 1 × 1 250 of shampoo. */
const lines = () => ({
  vouchers: [
    { voucher_template_uuid: shop.giftCard.uuid, price: 3333, quantity: 3 },
    { voucher_template_uuid: shop.giftCard.uuid, price: 1001, quantity: 2 },
  ],
  goods: [{ good_uuid: shop.shampoo.uuid, price: 1250, quantity: 1 }],
});

const refund = (orderId: string) =>
  shop.ws.api(`/orders/${orderId}/refund`, { method: "POST", body: {} });
const balanceOf = async (accountId: string) =>
  (
    await everyShard
      .prepare("select balance from accounts where id = ?")
      .bind(accountId)
      .first<{ balance: number }>()
  )?.balance ?? 0;

interface Case {
  name: string;
  terms: Record<string, unknown>;
  total: number;
  /** What each issued voucher is worth, per voucher line, in issue order. */
  values: [number[], number[]];
}

// Base 13 251. Worked by hand in docs/decisions.md ("Money: what a voucher is worth").
const cases: Case[] = [
  {
    name: "0 % off",
    terms: { discount_mode: "percent", discount_percent: 0 },
    total: 13_251,
    values: [
      [3333, 3333, 3333],
      [1001, 1001],
    ],
  },
  {
    // 37 % of 13 251 = 4 902.87 → 4 903, spread 3 700 / 741 / 462.
    name: "37 % off by promocode",
    terms: { promocode: "THIRTYSEVEN" },
    total: 8348,
    values: [
      [2100, 2100, 2099],
      [631, 630],
    ],
  },
  {
    name: "100 % off by promocode",
    terms: { promocode: "FREE" },
    total: 0,
    values: [
      [0, 0, 0],
      [0, 0],
    ],
  },
  {
    // 1 000 fixed + 779 by promocode = 1 779, spread 1 342 / 269 / 168.
    name: "a fixed discount and a fixed promocode",
    terms: { discount_amount: 1000, promocode: "MINUS779" },
    total: 11_472,
    values: [
      [2886, 2886, 2885],
      [867, 866],
    ],
  },
];

describe("vouchers sold on a discounted order are issued at what was paid for them", () => {
  it.each(cases)("$name", async ({ terms, total, values }) => {
    const cashBefore = await balanceOf(shop.cash.uuid);
    const order = await openOrder(shop, { ...lines(), ...terms });
    expect(order.total).toBe(total);
    const paid = await payOrder(shop, order.uuid, { account_uuid: shop.cash.uuid });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body.total).toBe(total);
    expect(await balanceOf(shop.cash.uuid)).toBe(cashBefore + total);

    const issued: string[][] = paid.body.vouchers.map((l: { codes: string[] }) => l.codes);
    expect(issued.map((codes) => codes.length)).toEqual([3, 2]);
    for (const [line, codes] of issued.entries()) {
      for (const [unit, code] of codes.entries()) {
        const worth = values[line]?.[unit];
        expect((await shop.ws.api(`/vouchers/${code}`)).body).toEqual({
          code,
          template_uuid: shop.giftCard.uuid,
          initial_amount: worth,
          balance: worth,
          status: "active",
          order_uuid: order.uuid,
        });
      }
    }
    // Never more than was paid: the vouchers and the shampoo's share make up the total exactly.
    const voucherWorth = values.flat().reduce((a, b) => a + b, 0);
    expect(voucherWorth).toBeLessThanOrEqual(total);

    // The refund voids every one of them and takes back exactly what the till received.
    const back = await refund(order.uuid);
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(await balanceOf(shop.cash.uuid)).toBe(cashBefore);
    for (const [line, codes] of issued.entries())
      for (const [unit, code] of codes.entries())
        expect(await voucherOf(shop, code)).toMatchObject({
          initial_amount: values[line]?.[unit],
          balance: 0,
          status: "void",
        });
  });

  it("a discounted voucher spends only its issued amount, and a refund restores exactly that", async () => {
    const order = await openOrder(shop, {
      vouchers: [{ voucher_template_uuid: shop.giftCard.uuid, price: 5000, quantity: 1 }],
      promocode: "THIRTYSEVEN",
    });
    const sold = await payOrder(shop, order.uuid, { account_uuid: shop.cash.uuid });
    expect(sold.status, JSON.stringify(sold.body)).toBe(200);
    const code: string = sold.body.vouchers[0].codes[0];
    expect(await voucherOf(shop, code)).toMatchObject({ initial_amount: 3150, balance: 3150 });

    // Its face price (5 000) is not what it holds: asking for more is refused.
    const spend = await openOrder(shop, {
      goods: [{ good_uuid: shop.shampoo.uuid, price: 5000, quantity: 1 }],
    });
    const tooMuch = await payOrder(shop, spend.uuid, {
      account_uuid: shop.cash.uuid,
      vouchers: [{ code, amount: 5000 }],
    });
    expect(tooMuch.status, JSON.stringify(tooMuch.body)).toBe(409);
    expect(tooMuch.body.code).toBe("voucher_unavailable");
    const spent = await payOrder(shop, spend.uuid, {
      account_uuid: shop.cash.uuid,
      vouchers: [{ code }],
    });
    expect(spent.status, JSON.stringify(spent.body)).toBe(200);
    expect(spent.body).toMatchObject({ voucher_paid_amount: 3150, account_paid_amount: -1850 });
    expect(await voucherOf(shop, code)).toMatchObject({ balance: 0, status: "redeemed" });

    // While spent, its sale cannot be refunded; once the spending is undone, it can.
    expect((await refund(order.uuid)).body.code).toBe("voucher_already_used");
    expect((await refund(spend.uuid)).status).toBe(200);
    expect(await voucherOf(shop, code)).toMatchObject({
      initial_amount: 3150,
      balance: 3150,
      status: "active",
    });
    expect((await refund(order.uuid)).status).toBe(200);
    expect(await voucherOf(shop, code)).toMatchObject({ balance: 0, status: "void" });
  });

  it("vouchers bought with a voucher on a discounted order are worth their share of the bill", async () => {
    const { codes } = await sellVouchers(shop, 1, 5000);
    const payWith = codes[0] as string;
    const cashBefore = await balanceOf(shop.cash.uuid);
    const order = await openOrder(shop, { ...lines(), promocode: "THIRTYSEVEN" });
    const paid = await payOrder(shop, order.uuid, {
      account_uuid: shop.cash.uuid,
      vouchers: [{ code: payWith }],
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body).toMatchObject({
      total: 8348,
      voucher_paid_amount: 5000,
      account_paid_amount: -3348,
    });
    const issued: string[] = paid.body.vouchers.flatMap((l: { codes: string[] }) => l.codes);
    const worth = await Promise.all(issued.map(async (c) => (await voucherOf(shop, c)).balance));
    expect(worth).toEqual([2100, 2100, 2099, 631, 630]);

    const back = await refund(order.uuid);
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(await voucherOf(shop, payWith)).toMatchObject({ balance: 5000, status: "active" });
    expect(await balanceOf(shop.cash.uuid)).toBe(cashBefore);
    for (const c of issued)
      expect(await voucherOf(shop, c)).toMatchObject({ balance: 0, status: "void" });
  });

  it("a voucher issued at 0 pays nothing and its sale still refunds", async () => {
    const order = await openOrder(shop, {
      vouchers: [{ voucher_template_uuid: shop.giftCard.uuid, price: 5000, quantity: 1 }],
      promocode: "FREE",
    });
    const sold = await payOrder(shop, order.uuid, { account_uuid: shop.cash.uuid });
    expect(sold.status, JSON.stringify(sold.body)).toBe(200);
    const code: string = sold.body.vouchers[0].codes[0];
    expect(await voucherOf(shop, code)).toMatchObject({
      initial_amount: 0,
      balance: 0,
      status: "active",
    });
    const spend = await openOrder(shop, {
      goods: [{ good_uuid: shop.shampoo.uuid, price: 1000, quantity: 1 }],
    });
    const refused = await payOrder(shop, spend.uuid, { vouchers: [{ code }] });
    expect(refused.status, JSON.stringify(refused.body)).toBe(409);
    expect(refused.body.code).toBe("voucher_unavailable");
    expect((await refund(order.uuid)).status).toBe(200);
    expect(await voucherOf(shop, code)).toMatchObject({ status: "void" });
  });
});
