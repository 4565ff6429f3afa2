import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { failpoints } from "../../src/platform/failpoints";
import {
  createShop,
  openOrder,
  payOrder,
  type Shop,
  sellVouchers,
  voucherOf,
} from "../helpers/shop";
import { everyShard } from "../helpers/every-shard";

/*
 * Every race here is forced: both requests meet at `orders.money.before_write`,
 * after each has read and planned, before either writes. Only the guards at
 * the head of the batches can then keep money from moving twice.
 */
let shop: Shop;
beforeAll(async () => {
  shop = await createShop();
});
afterEach(() => failpoints.disarmAll());

const MEET = "orders.money.before_write";
const cancel = (orderId: string) =>
  shop.ws.api(`/orders/${orderId}/cancel`, { method: "POST", body: {} });
const refund = (orderId: string) =>
  shop.ws.api(`/orders/${orderId}/refund`, { method: "POST", body: {} });
const one = async <T>(sql: string, ...binds: unknown[]) =>
  everyShard
    .prepare(sql)
    .bind(...binds)
    .first<T>();
const balanceOf = async (accountId: string) =>
  (await one<{ balance: number }>("select balance from accounts where id = ?", accountId))
    ?.balance ?? 0;
const stockOf = async (goodId: string) =>
  (
    await one<{ quantity: number }>(
      "select quantity from good_stocks where good_id = ? and location_id = ?",
      goodId,
      shop.location.uuid,
    )
  )?.quantity ?? 0;
const count = async (table: string, orderId: string) =>
  (await one<{ n: number }>(`select count(*) as n from ${table} where order_id = ?`, orderId))?.n;
const statuses = (rs: { status: number }[]) => rs.map((r) => r.status).sort();
const shampoo = (price = 1000) => ({
  goods: [{ good_uuid: shop.shampoo.uuid, price, quantity: 1 }],
});

describe("money races on one order", () => {
  it("pay || cancel: one wins; stock and till move only if the payment won", async () => {
    const stock = await stockOf(shop.shampoo.uuid);
    const cash = await balanceOf(shop.cash.uuid);
    const order = await openOrder(shop, shampoo());
    failpoints.meet(MEET, 2);
    const [paid, cancelled] = await Promise.all([
      payOrder(shop, order.uuid, { account_uuid: shop.cash.uuid }),
      cancel(order.uuid),
    ]);
    expect(statuses([paid, cancelled])).toEqual([200, 409]);
    const winner = paid.status === 200 ? paid : cancelled;
    const loser = paid.status === 200 ? cancelled : paid;
    expect(loser.body.code).toBe("order_not_open");
    const final = (await shop.ws.api(`/orders/${order.uuid}`)).body;
    expect(final.status).toBe(winner.body.status);
    const movedOnce = final.status === "paid" ? 1 : 0;
    expect(await stockOf(shop.shampoo.uuid)).toBe(stock - movedOnce);
    expect(await balanceOf(shop.cash.uuid)).toBe(cash + 1000 * movedOnce);
    expect(await count("account_transactions", order.uuid)).toBe(movedOnce);
  });

  it("pay || pay with one voucher each way: paid once, the voucher spent once", async () => {
    const { codes } = await sellVouchers(shop, 1, 800);
    const code = codes[0] as string;
    const cash = await balanceOf(shop.cash.uuid);
    const order = await openOrder(shop, shampoo());
    failpoints.meet(MEET, 2);
    const refused = failpoints.hits("orders.pay.guard_refused");
    const results = await Promise.all(
      [0, 1].map(() =>
        payOrder(shop, order.uuid, { account_uuid: shop.cash.uuid, vouchers: [{ code }] }),
      ),
    );
    expect(failpoints.hits("orders.pay.guard_refused") - refused).toBe(1);
    expect(statuses(results)).toEqual([200, 409]);
    expect(results.find((r) => r.status === 409)?.body.code).toMatch(
      /^(order_not_open|voucher_balance_changed)$/,
    );
    expect(await voucherOf(shop, code)).toMatchObject({ balance: 0, status: "redeemed" });
    expect(await count("voucher_payments", order.uuid)).toBe(1);
    expect(await count("account_transactions", order.uuid)).toBe(1);
    expect(await balanceOf(shop.cash.uuid)).toBe(cash + 200);
  });

  it("cancel || cancel: one cancels, the other is 409, one event", async () => {
    const order = await openOrder(shop, shampoo());
    failpoints.meet(MEET, 2);
    const results = await Promise.all([cancel(order.uuid), cancel(order.uuid)]);
    expect(statuses(results)).toEqual([200, 409]);
    expect(results.find((r) => r.status === 409)?.body.code).toBe("order_not_open");
    const events = await one<{ n: number }>(
      "select count(*) as n from events where type = 'order-cancelled' and json_extract(payload, '$.uuid') = ?",
      order.uuid,
    );
    expect(events?.n).toBe(1);
  });

  it("refund || refund: money, stock and voucher go back once", async () => {
    const { codes } = await sellVouchers(shop, 1, 300);
    const code = codes[0] as string;
    const order = await openOrder(shop, shampoo());
    const paid = await payOrder(shop, order.uuid, {
      account_uuid: shop.cash.uuid,
      vouchers: [{ code }],
    });
    expect(paid.status).toBe(200);
    const stock = await stockOf(shop.shampoo.uuid);
    const cash = await balanceOf(shop.cash.uuid);
    failpoints.meet(MEET, 2);
    const refused = failpoints.hits("orders.refund.guard_refused");
    const results = await Promise.all([refund(order.uuid), refund(order.uuid)]);
    expect(failpoints.hits("orders.refund.guard_refused") - refused).toBe(1);
    expect(statuses(results)).toEqual([200, 409]);
    expect(results.find((r) => r.status === 409)?.body.code).toBe("order_not_paid");
    expect(await stockOf(shop.shampoo.uuid)).toBe(stock + 1);
    expect(await balanceOf(shop.cash.uuid)).toBe(cash - 700);
    expect(await voucherOf(shop, code)).toMatchObject({ balance: 300, status: "active" });
    expect(await count("account_transactions", order.uuid)).toBe(2);
  });
});

describe("two tills spending one voucher at once", () => {
  it("different orders: one spends it, the other is 409 voucher_balance_changed", async () => {
    const { codes } = await sellVouchers(shop, 1, 5000);
    const code = codes[0] as string;
    const cash = await balanceOf(shop.cash.uuid);
    const [x, y] = [await openOrder(shop, shampoo(3000)), await openOrder(shop, shampoo(3000))];
    failpoints.meet(MEET, 2);
    const refused = failpoints.hits("orders.pay.guard_refused");
    const results = await Promise.all(
      [x, y].map((o) =>
        payOrder(shop, o.uuid, { account_uuid: shop.cash.uuid, vouchers: [{ code }] }),
      ),
    );
    expect(statuses(results)).toEqual([200, 409]);
    const lost = results.findIndex((r) => r.status === 409);
    expect(results[lost]?.body.code).toBe("voucher_balance_changed");
    // Different orders: only the voucher's own guard could refuse the second spend.
    expect(failpoints.hits("orders.pay.guard_refused") - refused).toBe(1);
    expect(await voucherOf(shop, code)).toMatchObject({ balance: 2000, status: "active" });
    const payments = await one<{ n: number; total: number }>(
      "select count(*) as n, sum(p.amount) as total from voucher_payments p join vouchers v on v.id = p.voucher_id where v.code = ?",
      code,
    );
    expect(payments).toEqual({ n: 1, total: 3000 });
    expect(await balanceOf(shop.cash.uuid)).toBe(cash);
    const loser = [x, y][lost] as { uuid: string };
    expect((await shop.ws.api(`/orders/${loser.uuid}`)).body.status).toBe("open");
  });

  it("the table itself refuses a negative balance or one above the voucher's value", async () => {
    const { codes } = await sellVouchers(shop, 1, 500);
    const set = (balance: number) =>
      everyShard
        .prepare("update vouchers set balance = ? where code = ?")
        .bind(balance, codes[0])
        .run();
    await expect(set(-1)).rejects.toThrow(/CHECK constraint failed/);
    await expect(set(501)).rejects.toThrow(/CHECK constraint failed/);
    expect(await voucherOf(shop, codes[0] as string)).toMatchObject({ balance: 500 });
  });

  it("refunding the sale || spending its voucher: one wins, never both", async () => {
    const { order: sale, codes } = await sellVouchers(shop, 1, 5000);
    const code = codes[0] as string;
    const order = await openOrder(shop, shampoo(1000));
    failpoints.meet(MEET, 2);
    const [refunded, paid] = await Promise.all([
      refund(sale.uuid),
      payOrder(shop, order.uuid, { vouchers: [{ code }] }),
    ]);
    expect(statuses([refunded, paid])).toEqual([200, 409]);
    const voucher = await voucherOf(shop, code);
    if (refunded.status === 200) {
      expect(paid.body.code).toBe("voucher_unavailable");
      expect(voucher).toMatchObject({ status: "void", balance: 0 });
      expect(await count("voucher_payments", order.uuid)).toBe(0);
    } else {
      expect(refunded.body.code).toBe("voucher_already_used");
      expect(voucher).toMatchObject({ status: "active", balance: 4000 });
    }
  });
});
