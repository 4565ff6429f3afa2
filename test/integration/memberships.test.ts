import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { periodStart } from "../../src/packages/rules";
import { failpoints } from "../../src/platform/failpoints";
import { everyShard } from "../helpers/every-shard";
import {
  creditPeriods,
  cronAt,
  eventsAbout,
  membershipRow,
  type MonthlyTemplate,
  orderCheckout,
  renewalCharges,
  renewalRows,
  sellOnline,
  shopWithMembership,
} from "../helpers/memberships";
import { deliverEvents } from "../helpers/payments";
import { createPackageTemplate, issueDirect, type TestPackage } from "../helpers/packages";
import { openOrder, type Shop } from "../helpers/shop";
import { payCheckout, stripeFault, stripeRequests } from "../helpers/stripe";

/**
 * Memberships sold online and renewed by the cron: the order's hosted
 * checkout pays the order on the online account and saves the card; each
 * period the sweep (driven through `scheduled` with its `scheduledTime`)
 * charges the card off-session once and issues that period's credits once.
 */

let shop: Shop;
let anna: string;
let monthly: TestPackage;

const onlineBalance = async () =>
  (
    await everyShard
      .prepare("select balance from accounts where location_id = ? and type = 'online'")
      .bind(shop.location.uuid)
      .first<{ balance: number }>()
  )?.balance ?? 0;

const second = 1_000;
const DAY = 86_400_000;

const EIGHT_CUTS: MonthlyTemplate = {
  name: "8 cuts a month",
  price: 4900,
  service: "cut",
  count: 8,
};

beforeAll(async () => {
  ({ shop, anna, monthly } = await shopWithMembership(EIGHT_CUTS));
});

describe("selling a membership through the order's checkout", () => {
  it("pays the order on the online account, saves the card and issues the membership", async () => {
    const before = await onlineBalance();
    const { order, membership } = await sellOnline(shop, anna, monthly);
    const got = await shop.ws.api(`/orders/${order.uuid}`);
    expect(got.status).toBe(200);
    expect(got.body.status).toBe("paid");
    expect(got.body.payment_method).toBe("online_account");
    expect(got.body.packages[0].customer_package_uuids).toEqual([membership.id]);
    expect(await onlineBalance()).toBe(before + 4900);
    expect(membership.renewing).toBe(1);
    expect(membership.provider_customer).toMatch(/^cus_/);
    expect(membership.payment_method).toMatch(/^pm_/);
    expect(membership.next_charge_at).toBe(periodStart(membership.starts_at, 2));
    expect((await creditPeriods(membership.id)).map((c) => c.period)).toEqual([1]);
    const requests = await stripeRequests(shop.ws.id);
    const created = requests.find(
      (r) => r.path === "/v1/checkout/sessions" && r.method === "POST" && r.status === 200,
    );
    const intentData = created?.params.payment_intent_data as Record<string, unknown>;
    expect(intentData.setup_future_usage).toBe("off_session");
    expect(created?.params.metadata).toEqual({ workspace_id: shop.ws.id, order_uuid: order.uuid });
  });

  it("refuses an order that cannot be paid online, each with its code", async () => {
    const noCustomer = await openOrder(shop, {
      goods: [{ good_uuid: shop.shampoo.uuid, price: 1250, quantity: 1 }],
    });
    const refused = await shop.ws.api(`/orders/${noCustomer.uuid}/checkout`, {
      method: "POST",
      body: { success_url: "https://a.example/ok", cancel_url: "https://a.example/back" },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("customer_required");
    const free = await openOrder(shop, {
      customer_uuid: anna,
      goods: [{ good_uuid: shop.shampoo.uuid, price: 0, quantity: 1 }],
    });
    const nothing = await shop.ws.api(`/orders/${free.uuid}/checkout`, {
      method: "POST",
      body: { success_url: "https://a.example/ok", cancel_url: "https://a.example/back" },
    });
    expect(nothing.status).toBe(409);
    expect(nothing.body.code).toBe("nothing_due");
    const cancelled = await openOrder(shop, {
      customer_uuid: anna,
      packages: [{ package_uuid: monthly.uuid, price: 4900, quantity: 1 }],
    });
    expect((await shop.ws.api(`/orders/${cancelled.uuid}/cancel`, { method: "POST" })).status).toBe(
      200,
    );
    const notOpen = await shop.ws.api(`/orders/${cancelled.uuid}/checkout`, {
      method: "POST",
      body: { success_url: "https://a.example/ok", cancel_url: "https://a.example/back" },
    });
    expect(notOpen.status).toBe(409);
    expect(notOpen.body.code).toBe("order_not_open");
  });

  it("a page paid after the order was cancelled gives the money back in full", async () => {
    const order = await openOrder(shop, {
      customer_uuid: anna,
      packages: [{ package_uuid: monthly.uuid, price: 4900, quantity: 1 }],
    });
    const { session } = await orderCheckout(shop, order.uuid);
    const cancel = await shop.ws.api(`/orders/${order.uuid}/cancel`, { method: "POST" });
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
    const before = await renewalCharges(shop.ws.id);
    expect((await payCheckout(session)).status).toBe("complete");
    const { answers } = await deliverEvents(shop.ws.id);
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const after = await renewalCharges(shop.ws.id);
    expect(after.refunds.length - before.refunds.length).toBe(1);
    expect(after.refunds.at(-1)?.amount).toBe(4900);
    expect((await shop.ws.api(`/orders/${order.uuid}`)).body.status).toBe("cancelled");
    const issued = await everyShard
      .prepare("select count(*) as n from customer_packages where order_id = ?")
      .bind(order.uuid)
      .first<{ n: number }>();
    expect(issued?.n).toBe(0);
    // The event again (a redelivery): nothing more is refunded.
    await deliverEvents(shop.ws.id);
    expect((await renewalCharges(shop.ws.id)).refunds.length).toBe(after.refunds.length);
  });
});

describe("renewals", () => {
  // Each its own workspace: the cron renews every membership due, and a sale's periods start
  // within seconds of each other's.
  beforeEach(async () => {
    ({ shop, anna, monthly } = await shopWithMembership(EIGHT_CUTS));
  });

  it("three periods, the second declined once: past due without credits, then paid a day later", async () => {
    const { membership } = await sellOnline(shop, anna, monthly);
    const id = membership.id;
    const p2 = periodStart(membership.starts_at, 2);
    const p3 = periodStart(membership.starts_at, 3);
    const balance = await onlineBalance();
    const before = await renewalCharges(shop.ws.id);

    // A sweep before the period's start charges nothing.
    await cronAt(p2 - second);
    expect(await renewalRows(id)).toEqual([]);

    await stripeFault({
      method: "POST",
      path: "/v1/payment_intents",
      when: "decline",
      workspace: shop.ws.id,
    });
    await cronAt(p2 + second);
    let row = await membershipRow(id);
    expect(row.past_due).toBe(1);
    expect(row.period).toBe(1);
    expect(row.next_charge_at).toBe(p2 + second + DAY);
    expect((await creditPeriods(id)).map((c) => c.period)).toEqual([1]);
    expect(await renewalRows(id)).toMatchObject([
      { period: 2, status: "failed", attempt: 1, failure_reason: "generic_decline" },
    ]);
    expect((await shop.ws.api(`/customer-packages/${id}`)).body.status).toBe("past_due");
    const pastDue = await eventsAbout(shop.ws.id, "membership-past-due", id);
    expect(pastDue).toHaveLength(1);
    expect(pastDue[0]?.status).toBe("past_due");
    expect(await onlineBalance()).toBe(balance);

    // Not retried before a day passed.
    await cronAt(p2 + 2 * second);
    expect(await renewalRows(id)).toMatchObject([{ attempt: 1, status: "failed" }]);

    await cronAt(p2 + DAY + 2 * second);
    row = await membershipRow(id);
    expect(row.past_due).toBe(0);
    expect(row.period).toBe(2);
    expect(row.next_charge_at).toBe(p3);
    expect((await creditPeriods(id)).map((c) => c.period)).toEqual([1, 2]);
    expect(await renewalRows(id)).toMatchObject([{ period: 2, status: "succeeded", attempt: 2 }]);
    expect((await shop.ws.api(`/customer-packages/${id}`)).body.status).toBe("active");
    expect(await onlineBalance()).toBe(balance + 4900);

    await cronAt(p3 + second);
    row = await membershipRow(id);
    expect(row.period).toBe(3);
    expect((await creditPeriods(id)).map((c) => c.period)).toEqual([1, 2, 3]);
    expect(await onlineBalance()).toBe(balance + 2 * 4900);
    const renewed = await eventsAbout(shop.ws.id, "membership-renewed", id);
    expect(renewed.map((e) => (e.membership as { period: number }).period)).toEqual([2, 3]);

    const after = await renewalCharges(shop.ws.id);
    expect(after.succeeded.length - before.succeeded.length).toBe(2);
    expect(after.failed.length - before.failed.length).toBe(1);
    const keys = (await stripeRequests(shop.ws.id))
      .filter((r) => r.idempotency_key?.startsWith(`membership:${id}:`))
      .map((r) => r.idempotency_key);
    expect(keys).toEqual([`membership:${id}:2:1`, `membership:${id}:2:2`, `membership:${id}:3:1`]);
  });

  it("a card that fails later (4000 0000 0000 0341) leaves the membership past due", async () => {
    const { membership } = await sellOnline(shop, anna, monthly, "4000000000000341");
    await cronAt(periodStart(membership.starts_at, 2) + second);
    const row = await membershipRow(membership.id);
    expect(row.past_due).toBe(1);
    expect(row.period).toBe(1);
    expect((await creditPeriods(membership.id)).map((c) => c.period)).toEqual([1]);
    expect(await eventsAbout(shop.ws.id, "membership-past-due", membership.id)).toHaveLength(1);
  });

  it("two sweeps at once charge once and issue once", async () => {
    const { membership } = await sellOnline(shop, anna, monthly);
    const before = await renewalCharges(shop.ws.id);
    const t = periodStart(membership.starts_at, 2) + second;
    // Both sweeps have claimed (or found) the try before either calls the provider.
    failpoints.meet("packages.renewal.before_charge", 2);
    await Promise.all([cronAt(t), cronAt(t)]);
    // Whatever the second sweep left (its answer lost to the first), the next one settles.
    await cronAt(t + second);
    const after = await renewalCharges(shop.ws.id);
    expect(after.succeeded.length - before.succeeded.length).toBe(1);
    expect((await creditPeriods(membership.id)).map((c) => c.period)).toEqual([1, 2]);
    expect(await eventsAbout(shop.ws.id, "membership-renewed", membership.id)).toHaveLength(1);
    const calls = (await stripeRequests(shop.ws.id)).filter((r) =>
      r.idempotency_key?.startsWith(`membership:${membership.id}:`),
    );
    // Both sweeps called, under the one key: the provider acted once.
    expect(calls.length).toBeGreaterThanOrEqual(2);
    expect(new Set(calls.map((c) => c.idempotency_key))).toEqual(
      new Set([`membership:${membership.id}:2:1`]),
    );
    expect(calls.filter((c) => c.status === 200 && !c.replayed)).toHaveLength(1);
  });

  it("one sweep renews 30 due memberships of a workspace, each once", async () => {
    const { membership } = await sellOnline(shop, anna, monthly);
    const card = {
      providerCustomer: membership.provider_customer ?? "",
      paymentMethod: membership.payment_method ?? "",
    };
    const others = await issueDirect(shop.ws, {
      packageUuid: monthly.uuid,
      customerUuid: anna,
      quantity: 29,
      at: membership.starts_at,
      card,
      locationId: shop.location.uuid,
    });
    const before = await renewalCharges(shop.ws.id);
    const t = periodStart(membership.starts_at, 2) + second;
    const started = Date.now();
    await cronAt(t);
    const took = Date.now() - started;
    console.log(`renewal sweep: 30 memberships in ${took} ms`);
    const after = await renewalCharges(shop.ws.id);
    expect(after.succeeded.length - before.succeeded.length).toBe(30);
    for (const id of [membership.id, ...others])
      expect((await creditPeriods(id)).map((c) => c.period)).toEqual([1, 2]);
    await cronAt(t + second);
    expect((await renewalCharges(shop.ws.id)).succeeded.length).toBe(after.succeeded.length);
  });

  it("renews from the credit lines it was sold with, whatever the template says later", async () => {
    const yoga = await createPackageTemplate(shop.ws, {
      name: "4 cuts a month",
      price: 3000,
      credits: [{ service_uuids: [shop.cut.uuid], count: 4 }],
      valid_days: 31,
      renews: { every: "month" },
    });
    const { membership } = await sellOnline(shop, anna, yoga);
    const patched = await shop.ws.api(`/packages/${yoga.uuid}`, {
      method: "PATCH",
      body: { credits: [{ service_uuids: [shop.cut.uuid], count: 40 }] },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    await cronAt(periodStart(membership.starts_at, 2) + second);
    const totals = await everyShard
      .prepare(
        "select period, total from customer_package_credits where customer_package_id = ? order by period",
      )
      .bind(membership.id)
      .all<{ period: number; total: number }>();
    expect(totals.results).toEqual([
      { period: 1, total: 4 },
      { period: 2, total: 4 },
    ]);
  });

  it("a cancelled membership is not charged again and simply expires", async () => {
    const { membership } = await sellOnline(shop, anna, monthly);
    const cancel = await shop.ws.api(`/customer-packages/${membership.id}/cancel`, {
      method: "POST",
    });
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
    const before = await renewalCharges(shop.ws.id);
    await cronAt(periodStart(membership.starts_at, 2) + second);
    await cronAt(periodStart(membership.starts_at, 3) + second);
    const after = await renewalCharges(shop.ws.id);
    expect(after.succeeded.length).toBe(before.succeeded.length);
    expect(after.failed.length).toBe(before.failed.length);
    const row = await membershipRow(membership.id);
    expect(row.next_charge_at).toBeNull();
    expect(row.period).toBe(1);
    expect(await renewalRows(membership.id)).toEqual([]);
  });
});
