import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { reconcilePayments } from "../../src/payments/reconcile";
import { periodStart } from "../../src/packages/rules";
import { failpoints } from "../../src/platform/failpoints";
import { everyShard } from "../helpers/every-shard";
import {
  creditPeriods,
  FOUR_COLOURS,
  cronAt,
  eventsAbout,
  membershipRow,
  orderCheckout,
  renewalCharges,
  renewalRows,
  sellOnline,
  shopWithMembership,
} from "../helpers/memberships";
import { postEvent } from "../helpers/payments";
import type { TestPackage } from "../helpers/packages";
import { openOrder, payOrder, type Shop } from "../helpers/shop";
import {
  payCheckout,
  stripeDeliveries,
  stripeFault,
  type StripeFault,
  stripeRequests,
} from "../helpers/stripe";

/**
 * Faults around a membership's renewal charge and the order checkout that
 * sells it: the provider failing before it acts, acting with its answer lost,
 * the Worker stopping between the provider's answer and our write, an event
 * delivered again. Each ends, after the next sweep (or redelivery), with
 * exactly one charge and one issue of the period's credits.
 */

let shop: Shop;
let anna: string;
let monthly: TestPackage;
const second = 1_000;

beforeEach(async () => {
  ({ shop, anna, monthly } = await shopWithMembership(FOUR_COLOURS));
});

afterEach(() => failpoints.disarmAll());

const fault = (f: Omit<StripeFault, "workspace">) => stripeFault({ ...f, workspace: shop.ws.id });

const callsOf = async (id: string) =>
  (await stripeRequests(shop.ws.id)).filter((r) =>
    r.idempotency_key?.startsWith(`membership:${id}:`),
  );

/** After all is done: one charge, one period-2 issue, one renewed event, the period paid. */
async function expectRenewedOnce(id: string, before: Awaited<ReturnType<typeof renewalCharges>>) {
  const after = await renewalCharges(shop.ws.id);
  expect(after.succeeded.length - before.succeeded.length).toBe(1);
  expect((await creditPeriods(id)).map((c) => c.period)).toEqual([1, 2]);
  expect(await eventsAbout(shop.ws.id, "membership-renewed", id)).toHaveLength(1);
  const row = await membershipRow(id);
  expect(row.period).toBe(2);
  expect(row.past_due).toBe(0);
  const [renewal] = await renewalRows(id);
  expect(renewal?.status).toBe("succeeded");
  // Our record names the one payment the provider made.
  expect(renewal?.provider_ref).toBe(after.succeeded.at(-1)?.payment_intent);
}

describe("a renewal's charge under faults", () => {
  it("the Worker stops between the provider's answer and our write: the next sweep repeats the key, the provider replays", async () => {
    const { membership } = await sellOnline(shop, anna, monthly);
    const before = await renewalCharges(shop.ws.id);
    const t = periodStart(membership.starts_at, 2) + second;
    failpoints.arm("packages.renewal.answered", (detail) => detail === membership.id);
    await cronAt(t);
    expect(failpoints.hits("packages.renewal.answered")).toBeGreaterThan(0);
    // Charged, but nothing of ours says so yet.
    expect((await renewalCharges(shop.ws.id)).succeeded.length - before.succeeded.length).toBe(1);
    expect(await renewalRows(membership.id)).toMatchObject([{ status: "pending", attempt: 1 }]);
    expect((await creditPeriods(membership.id)).map((c) => c.period)).toEqual([1]);

    await cronAt(t + second);
    await expectRenewedOnce(membership.id, before);
    const calls = await callsOf(membership.id);
    expect(calls.map((c) => [c.idempotency_key, c.replayed])).toEqual([
      [`membership:${membership.id}:2:1`, false],
      [`membership:${membership.id}:2:1`, true],
    ]);
    // A sweep after everything was written sends nothing.
    await cronAt(t + 2 * second);
    expect(await callsOf(membership.id)).toHaveLength(2);
  });

  it("the provider fails before acting (both of the client's tries): pending, then charged once by the next sweep", async () => {
    const { membership } = await sellOnline(shop, anna, monthly);
    const before = await renewalCharges(shop.ws.id);
    const t = periodStart(membership.starts_at, 2) + second;
    await fault({ method: "POST", path: "/v1/payment_intents", when: "before", times: 2 });
    await cronAt(t);
    expect(await renewalRows(membership.id)).toMatchObject([{ status: "pending", attempt: 1 }]);
    expect((await renewalCharges(shop.ws.id)).succeeded.length).toBe(before.succeeded.length);
    expect((await membershipRow(membership.id)).past_due).toBe(0);
    await cronAt(t + second);
    await expectRenewedOnce(membership.id, before);
  });

  it("a try unanswered until the next period began is finished first, under its own key", async () => {
    const { membership } = await sellOnline(shop, anna, monthly);
    const before = await renewalCharges(shop.ws.id);
    await fault({ method: "POST", path: "/v1/payment_intents", when: "before", times: 2 });
    await cronAt(periodStart(membership.starts_at, 2) + second);
    expect(await renewalRows(membership.id)).toMatchObject([{ period: 2, status: "pending" }]);
    const t3 = periodStart(membership.starts_at, 3) + second;
    await cronAt(t3);
    await cronAt(t3 + second);
    const after = await renewalCharges(shop.ws.id);
    expect(after.succeeded.length - before.succeeded.length).toBe(2);
    expect(await renewalRows(membership.id)).toMatchObject([
      { period: 2, status: "succeeded", attempt: 1 },
      { period: 3, status: "succeeded", attempt: 1 },
    ]);
    expect((await creditPeriods(membership.id)).map((c) => c.period)).toEqual([1, 2, 3]);
    expect((await membershipRow(membership.id)).period).toBe(3);
  });

  it("the provider acts and its answer is lost: the client's retry under the same key gets it", async () => {
    const { membership } = await sellOnline(shop, anna, monthly);
    const before = await renewalCharges(shop.ws.id);
    const t = periodStart(membership.starts_at, 2) + second;
    await fault({ method: "POST", path: "/v1/payment_intents", when: "after", times: 1 });
    await cronAt(t);
    await cronAt(t + second);
    await expectRenewedOnce(membership.id, before);
    const keys = new Set((await callsOf(membership.id)).map((c) => c.idempotency_key));
    expect(keys).toEqual(new Set([`membership:${membership.id}:2:1`]));
  });

  it("a decline whose answer was lost: the repeat replays the decline, one failed charge, past due", async () => {
    const { membership } = await sellOnline(shop, anna, monthly);
    const before = await renewalCharges(shop.ws.id);
    const t = periodStart(membership.starts_at, 2) + second;
    await fault({ method: "POST", path: "/v1/payment_intents", when: "decline", times: 1 });
    failpoints.arm("packages.renewal.answered", (detail) => detail === membership.id);
    await cronAt(t);
    expect(await renewalRows(membership.id)).toMatchObject([{ status: "pending", attempt: 1 }]);
    await cronAt(t + second);
    const after = await renewalCharges(shop.ws.id);
    expect(after.failed.length - before.failed.length).toBe(1);
    expect(after.succeeded.length).toBe(before.succeeded.length);
    expect(await renewalRows(membership.id)).toMatchObject([{ status: "failed", attempt: 1 }]);
    const row = await membershipRow(membership.id);
    expect(row.past_due).toBe(1);
    expect((await creditPeriods(membership.id)).map((c) => c.period)).toEqual([1]);
    expect(await eventsAbout(shop.ws.id, "membership-past-due", membership.id)).toHaveLength(1);
  });
});

describe("the order checkout under faults", () => {
  it("the Worker stops before paying the order: 500, the redelivered event pays it once", async () => {
    const order = await openOrder(shop, {
      customer_uuid: anna,
      packages: [{ package_uuid: monthly.uuid, price: 7900, quantity: 1 }],
    });
    const { session } = await orderCheckout(shop, order.uuid);
    expect((await payCheckout(session)).status).toBe("complete");
    const completed = (await stripeDeliveries(shop.ws.id)).find(
      (d) => d.type === "checkout.session.completed",
    );
    if (!completed) throw new Error("no checkout.session.completed");
    failpoints.arm("payments.order_checkout.before_pay");
    expect((await postEvent(completed)).status).toBe(500);
    expect((await shop.ws.api(`/orders/${order.uuid}`)).body.status).toBe("open");
    const [again, twice] = await Promise.all([postEvent(completed), postEvent(completed)]);
    expect([again.status, twice.status]).toEqual([200, 200]);
    expect((await shop.ws.api(`/orders/${order.uuid}`)).body.status).toBe("paid");
    const issued = await everyShard
      .prepare("select count(*) as n from customer_packages where order_id = ?")
      .bind(order.uuid)
      .first<{ n: number }>();
    expect(issued?.n).toBe(1);
    expect((await renewalCharges(shop.ws.id)).refunds).toHaveLength(0);
  });

  it("an event that never came: the reconcile asks the provider and pays the order (or closes an unpaid page)", async () => {
    const paidOrder = await openOrder(shop, {
      customer_uuid: anna,
      packages: [{ package_uuid: monthly.uuid, price: 7900, quantity: 1 }],
    });
    const unpaidOrder = await openOrder(shop, {
      customer_uuid: anna,
      packages: [{ package_uuid: monthly.uuid, price: 7900, quantity: 1 }],
    });
    const paid = await orderCheckout(shop, paidOrder.uuid);
    const unpaid = await orderCheckout(shop, unpaidOrder.uuid);
    expect((await payCheckout(paid.session)).status).toBe("complete");
    // The events are lost.
    await stripeDeliveries(shop.ws.id);
    await reconcilePayments(env as unknown as Env, {
      now: Date.parse(unpaid.expires_at) + 5 * 60_000,
    });
    expect((await shop.ws.api(`/orders/${paidOrder.uuid}`)).body.status).toBe("paid");
    expect((await shop.ws.api(`/orders/${unpaidOrder.uuid}`)).body.status).toBe("open");
    const rows = await everyShard
      .prepare("select order_id, status from order_checkouts where workspace_id = ?")
      .bind(shop.ws.id)
      .all<{ order_id: string; status: string }>();
    expect(Object.fromEntries(rows.results.map((r) => [r.order_id, r.status]))).toEqual({
      [paidOrder.uuid]: "complete",
      [unpaidOrder.uuid]: "expired",
    });
    const membership = await everyShard
      .prepare("select renewing, payment_method from customer_packages where order_id = ?")
      .bind(paidOrder.uuid)
      .first<{ renewing: number; payment_method: string }>();
    expect(membership?.renewing).toBe(1);
  });

  it("a page paid after the order was paid at the till gives the money back in full", async () => {
    const order = await openOrder(shop, {
      customer_uuid: anna,
      goods: [{ good_uuid: shop.shampoo.uuid, price: 1250, quantity: 2 }],
    });
    const { session } = await orderCheckout(shop, order.uuid);
    const paid = await payOrder(shop, order.uuid, { account_uuid: shop.cash.uuid });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect((await payCheckout(session)).status).toBe("complete");
    const deliveries = await stripeDeliveries(shop.ws.id);
    for (const d of deliveries) expect((await postEvent(d)).status).toBe(200);
    const { refunds } = await renewalCharges(shop.ws.id);
    expect(refunds.map((r) => r.amount)).toEqual([2500]);
    const got = await shop.ws.api(`/orders/${order.uuid}`);
    expect(got.body.payment_method).toBe("cash_account");
    // The same event again: nothing more goes back.
    const completed = deliveries.find((d) => d.type === "checkout.session.completed");
    if (completed) await postEvent(completed);
    expect((await renewalCharges(shop.ws.id)).refunds).toHaveLength(1);
  });
});
