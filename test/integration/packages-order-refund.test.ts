import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { failpoints } from "../../src/platform/failpoints";
import { everyShard } from "../helpers/every-shard";
import { cronAt, sellOnline } from "../helpers/memberships";
import { deliverEvents } from "../helpers/payments";
import { createCustomer, createPackageTemplate, type TestPackage } from "../helpers/packages";
import { createShop, openOrder, payOrder, type Shop } from "../helpers/shop";
import { stripeFault, type StripeFault, stripeLedger, stripeRequests } from "../helpers/stripe";

/**
 * A POS order paid online (a membership sold through its checkout) and then
 * refunded gives the money back at the provider: one refund of the full
 * amount under the key `refund:order:<order>`, the location's online account
 * debited in the refund's write, the packages void. A lost answer is repeated
 * by the payments reconcile (the cron) under the same key; two refunds at
 * once give one; a till-paid order is refunded as before.
 */

let shop: Shop;
let anna: string;
let monthly: TestPackage;

beforeEach(async () => {
  shop = await createShop();
  anna = await createCustomer(shop.ws);
  monthly = await createPackageTemplate(shop.ws, {
    name: "4 colours a month",
    price: 7900,
    credits: [{ service_uuids: [shop.colour.uuid], count: 4 }],
    valid_days: 31,
    renews: { every: "month" },
  });
});

afterEach(() => failpoints.disarmAll());

const fault = (f: Omit<StripeFault, "workspace">) => stripeFault({ ...f, workspace: shop.ws.id });

const refund = (orderId: string) =>
  shop.ws.api(`/orders/${orderId}/refund`, { method: "POST", body: {} });

const onlineAccount = async () => {
  const res = await shop.ws.api(`/accounts?location_uuid=${shop.location.uuid}`);
  const online = (res.body.data as { uuid: string; type: string }[]).filter(
    (a) => a.type === "online",
  );
  expect(online).toHaveLength(1);
  return (online[0] as { uuid: string }).uuid;
};

const balanceOf = async (accountId: string) =>
  (
    await everyShard
      .prepare("select balance from accounts where id = ?")
      .bind(accountId)
      .first<{ balance: number }>()
  )?.balance;

const refundRow = (orderId: string) =>
  everyShard
    .prepare(
      "select refund_status, refund_amount, refund_ref, refund_failure, payment_intent from order_checkouts where order_id = ? and status = 'complete'",
    )
    .bind(orderId)
    .first<{
      refund_status: string | null;
      refund_amount: number | null;
      refund_ref: string | null;
      refund_failure: string | null;
      payment_intent: string | null;
    }>();

const refundsAtProvider = async () =>
  (await stripeLedger(shop.ws.id)).entries.filter((e) => e.kind === "refund");

const packageStatus = async (id: string) =>
  (await shop.ws.api(`/customer-packages?customer_uuid=${anna}`)).body.data.find(
    (p: { uuid: string }) => p.uuid === id,
  )?.status as string | undefined;

/** The answer was lost: the pending refund is made older than the reconcile's staleness window. */
const ageRefund = (orderId: string) =>
  everyShard
    .prepare(
      "update order_checkouts set refund_requested_at = refund_requested_at - 300000 where order_id = ? and refund_status = 'pending'",
    )
    .bind(orderId)
    .run();

async function expectRefundedOnce(orderId: string, paymentIntent: string | null) {
  const refunds = await refundsAtProvider();
  expect(refunds).toHaveLength(1);
  expect(refunds[0]).toMatchObject({ amount: 7900, payment_intent: paymentIntent });
  const row = await refundRow(orderId);
  expect(row).toMatchObject({ refund_status: "succeeded", refund_amount: 7900 });
  expect(row?.refund_ref).toBe(refunds[0]?.id);
  const calls = (await stripeRequests(shop.ws.id)).filter(
    (r) => r.idempotency_key === `refund:order:${orderId}`,
  );
  expect(calls.length).toBeGreaterThan(0);
}

describe("refunding an order paid online", () => {
  it("gives the full amount back at the provider once; the online account is back, the packages void", async () => {
    const account = await onlineAccount();
    const before = await balanceOf(account);
    const { order, membership } = await sellOnline(shop, anna, monthly);
    expect(await balanceOf(account)).toBe((before ?? 0) + 7900);
    const paid = await shop.ws.api(`/orders/${order.uuid}`);
    expect(paid.body).toMatchObject({ online_paid_amount: 7900, online_refunded_amount: 0 });

    const res = await refund(order.uuid);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      status: "refunded",
      online_paid_amount: 7900,
      online_refunded_amount: 7900,
    });
    const row = await refundRow(order.uuid);
    await expectRefundedOnce(order.uuid, row?.payment_intent ?? null);
    expect(await balanceOf(account)).toBe(before);
    expect(await packageStatus(membership.id)).toBe("void");
    const tx = await everyShard
      .prepare("select amount from account_transactions where account_id = ? and order_id = ?")
      .bind(account, order.uuid)
      .all<{ amount: number }>();
    expect(tx.results.map((t) => t.amount).sort((a, b) => a - b)).toEqual([-7900, 7900]);

    // The provider's charge.refunded for our own refund is not counted again.
    const { answers } = await deliverEvents(shop.ws.id);
    const refunded = answers.filter((a) => a.type === "charge.refunded");
    expect(refunded.length).toBeGreaterThan(0);
    for (const a of refunded) expect(a.status).toBe(200);
    expect(await balanceOf(account)).toBe(before);
    // A second refund is refused; a cron run sends nothing more.
    expect((await refund(order.uuid)).body.code).toBe("order_not_paid");
    await cronAt(Date.now());
    expect(await refundsAtProvider()).toHaveLength(1);
  });

  it("the provider fails before acting: 200 with the refund pending, the cron finishes it with one refund", async () => {
    const account = await onlineAccount();
    const before = await balanceOf(account);
    const { order, membership } = await sellOnline(shop, anna, monthly);
    // Both the call and the client's retry fail.
    await fault({ method: "POST", path: "/v1/refunds", when: "before", times: 2 });
    const res = await refund(order.uuid);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ status: "refunded", online_refunded_amount: 7900 });
    expect(await refundRow(order.uuid)).toMatchObject({ refund_status: "pending" });
    expect(await balanceOf(account)).toBe(before);
    expect(await packageStatus(membership.id)).toBe("void");
    expect(await refundsAtProvider()).toHaveLength(0);

    // Not stale yet: the cron leaves it to the call that may still be running.
    await cronAt(Date.now());
    expect(await refundRow(order.uuid)).toMatchObject({ refund_status: "pending" });
    await ageRefund(order.uuid);
    await cronAt(Date.now());
    const row = await refundRow(order.uuid);
    await expectRefundedOnce(order.uuid, row?.payment_intent ?? null);
    await cronAt(Date.now());
    expect(await refundsAtProvider()).toHaveLength(1);
  });

  it("the provider acts and its answer is lost: the client's retry under the same key gets it, one refund", async () => {
    const { order } = await sellOnline(shop, anna, monthly);
    await fault({ method: "POST", path: "/v1/refunds", when: "after", times: 1 });
    const res = await refund(order.uuid);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const row = await refundRow(order.uuid);
    await expectRefundedOnce(order.uuid, row?.payment_intent ?? null);
    const calls = (await stripeRequests(shop.ws.id)).filter(
      (r) => r.idempotency_key === `refund:order:${order.uuid}`,
    );
    expect(calls).toHaveLength(2);
  });

  it("the Worker stops between the provider's answer and its write: the cron writes it, one refund", async () => {
    const { order } = await sellOnline(shop, anna, monthly);
    failpoints.arm("payments.order_refund.answered", (detail) => detail === order.uuid);
    const res = await refund(order.uuid);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    failpoints.disarmAll();
    expect(await refundRow(order.uuid)).toMatchObject({ refund_status: "pending" });
    expect(await refundsAtProvider()).toHaveLength(1);
    await ageRefund(order.uuid);
    await cronAt(Date.now());
    const row = await refundRow(order.uuid);
    await expectRefundedOnce(order.uuid, row?.payment_intent ?? null);
  });

  it("two refunds at once: one 200, one 409, one provider refund", async () => {
    const account = await onlineAccount();
    const before = await balanceOf(account);
    const { order } = await sellOnline(shop, anna, monthly);
    const answers = await Promise.all([refund(order.uuid), refund(order.uuid)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.status === 409)?.body.code).toMatch(
      /^(order_not_paid|order_changed)$/,
    );
    const row = await refundRow(order.uuid);
    await expectRefundedOnce(order.uuid, row?.payment_intent ?? null);
    expect(await balanceOf(account)).toBe(before);
  });
});

describe("refunding an order paid at the till", () => {
  it("is unchanged: the till account is debited, nothing is asked of the provider", async () => {
    const tenCuts = await createPackageTemplate(shop.ws, {
      name: "10 cuts",
      price: 30000,
      credits: [{ service_uuids: [shop.colour.uuid], count: 10 }],
      valid_days: 365,
    });
    const order = await openOrder(shop, {
      customer_uuid: anna,
      packages: [{ package_uuid: tenCuts.uuid, price: 30000, quantity: 1 }],
    });
    const cashBefore = await balanceOf(shop.cash.uuid);
    const paid = await payOrder(shop, order.uuid, { account_uuid: shop.cash.uuid });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    const id = paid.body.packages[0].customer_package_uuids[0] as string;
    const res = await refund(order.uuid);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      status: "refunded",
      online_paid_amount: 0,
      online_refunded_amount: 0,
    });
    expect(await balanceOf(shop.cash.uuid)).toBe(cashBefore);
    expect(await packageStatus(id)).toBe("void");
    expect(await refundsAtProvider()).toHaveLength(0);
  });
});
