import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { periodStart, RETRY_AFTER_MS } from "../../src/packages/rules";
import { failpoints, rendezvous } from "../../src/platform/failpoints";
import { shardOf } from "../helpers/every-shard";
import {
  creditPeriods,
  FOUR_COLOURS,
  cronAt,
  eventsAbout,
  membershipRow,
  renewalCharges,
  sellOnline,
  shopWithMembership,
} from "../helpers/memberships";
import type { TestPackage } from "../helpers/packages";
import type { Shop } from "../helpers/shop";
import { stripeFault, stripeRequests } from "../helpers/stripe";

/**
 * Review of the renewal sweep: a refund of the membership's order racing its
 * renewal (the charge goes back under `refund:membership:<id>:<period>`, no
 * credits on a void package), a void membership's unanswered try finished by
 * the next sweep, and a shard whose front of the due queue cannot be worked on
 * (no card, a try unanswered for a day) still renewing the rest.
 */

let shop: Shop;
let anna: string;
let monthly: TestPackage;
const second = 1_000;

beforeEach(async () => {
  ({ shop, anna, monthly } = await shopWithMembership(FOUR_COLOURS));
});

afterEach(() => failpoints.disarmAll());

const refundOrder = (orderId: string) =>
  shop.ws.api(`/orders/${orderId}/refund`, { method: "POST", body: {} });

const renewalRow = async (id: string) => {
  const { db } = await shardOf(shop.ws.id);
  return db
    .prepare(
      "select period, status, attempt, provider_ref, refund_ref, failure_reason from package_renewals where customer_package_id = ?",
    )
    .bind(id)
    .first<{
      period: number;
      status: string;
      attempt: number;
      provider_ref: string | null;
      refund_ref: string | null;
      failure_reason: string | null;
    }>();
};

const keyed = async (key: string) =>
  (await stripeRequests(shop.ws.id)).filter((r) => r.idempotency_key === key);

/** The renewal's charge was made once and given back once; the void package got nothing. */
async function expectRefundedOnce(id: string, before: Awaited<ReturnType<typeof renewalCharges>>) {
  const after = await renewalCharges(shop.ws.id);
  const charged = after.succeeded.slice(before.succeeded.length);
  expect(charged).toHaveLength(1);
  const pi = charged[0]?.payment_intent;
  expect(after.refunds.filter((r) => r.payment_intent === pi).map((r) => r.amount)).toEqual([7900]);
  const row = await renewalRow(id);
  expect(row).toMatchObject({ period: 2, status: "refunded", provider_ref: pi });
  expect(row?.refund_ref).toBeTruthy();
  expect((await creditPeriods(id)).map((c) => c.period)).toEqual([1]);
  expect(await eventsAbout(shop.ws.id, "membership-renewed", id)).toHaveLength(0);
  const m = await membershipRow(id);
  expect(m).toMatchObject({ status: "void", period: 1, past_due: 0, next_charge_at: null });
}

/** Sweeps at `t` and, once it has claimed the try (read and due), refunds the order before it charges. */
async function refundDuringSweep(orderId: string, id: string, t: number) {
  failpoints.meet("packages.renewal.before_charge", 2, 15_000);
  const sweep = cronAt(t);
  for (let i = 0; i < 300 && !(await renewalRow(id)); i++)
    await new Promise((r) => setTimeout(r, 10));
  expect(await renewalRow(id)).toMatchObject({ status: "pending" });
  const refunded = await refundOrder(orderId);
  expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
  await rendezvous("packages.renewal.before_charge");
  await sweep;
}

describe("a refund of the order racing the renewal", () => {
  it("voided between the sweep's read and the answer: the charge is refunded, no credits issued", async () => {
    const { order, membership } = await sellOnline(shop, anna, monthly);
    const before = await renewalCharges(shop.ws.id);
    const t = periodStart(membership.starts_at, 2) + second;
    await refundDuringSweep(order.uuid, membership.id, t);
    await expectRefundedOnce(membership.id, before);
    expect(await keyed(`refund:membership:${membership.id}:2`)).toHaveLength(1);
    // Later sweeps send nothing more.
    await cronAt(t + second);
    await cronAt(periodStart(membership.starts_at, 3) + second);
    await expectRefundedOnce(membership.id, before);
    expect(await keyed(`refund:membership:${membership.id}:2`)).toHaveLength(1);
  });

  it("the refund's answer is lost: the next sweep repeats it under the same key", async () => {
    const { order, membership } = await sellOnline(shop, anna, monthly);
    const before = await renewalCharges(shop.ws.id);
    const t = periodStart(membership.starts_at, 2) + second;
    failpoints.arm("packages.renewal.refund_answered", (d) => d === membership.id);
    await refundDuringSweep(order.uuid, membership.id, t);
    expect(failpoints.hits("packages.renewal.refund_answered")).toBeGreaterThan(0);
    expect(await renewalRow(membership.id)).toMatchObject({ status: "refund_pending" });
    await cronAt(t + second);
    await expectRefundedOnce(membership.id, before);
    const calls = await keyed(`refund:membership:${membership.id}:2`);
    expect(calls.map((c) => c.replayed)).toEqual([false, true]);
  });

  it("a void membership's try left unanswered is finished by the next sweep (same key) and refunded", async () => {
    const { order, membership } = await sellOnline(shop, anna, monthly);
    const before = await renewalCharges(shop.ws.id);
    const t = periodStart(membership.starts_at, 2) + second;
    failpoints.arm("packages.renewal.answered", (d) => d === membership.id);
    await cronAt(t);
    expect(await renewalRow(membership.id)).toMatchObject({ status: "pending" });
    const refunded = await refundOrder(order.uuid);
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
    await cronAt(t + second);
    await expectRefundedOnce(membership.id, before);
    const charges = await keyed(`membership:${membership.id}:2:1`);
    expect(charges.map((c) => c.replayed)).toEqual([false, true]);
  });

  it("a void membership's try declined after the void: the try is failed, nothing told, not past due", async () => {
    const { order, membership } = await sellOnline(shop, anna, monthly);
    const t = periodStart(membership.starts_at, 2) + second;
    await stripeFault({
      workspace: shop.ws.id,
      method: "POST",
      path: "/v1/payment_intents",
      when: "before",
      times: 2,
    });
    await cronAt(t);
    expect(await renewalRow(membership.id)).toMatchObject({ status: "pending" });
    expect((await refundOrder(order.uuid)).status).toBe(200);
    await stripeFault({
      workspace: shop.ws.id,
      method: "POST",
      path: "/v1/payment_intents",
      when: "decline",
      times: 1,
    });
    await cronAt(t + second);
    expect(await renewalRow(membership.id)).toMatchObject({ status: "failed" });
    expect(await eventsAbout(shop.ws.id, "membership-past-due", membership.id)).toHaveLength(0);
    expect(await membershipRow(membership.id)).toMatchObject({ status: "void", past_due: 0 });
  });
});

describe("the due queue always moves", () => {
  it("51 memberships that cannot be charged ahead of a good one on its shard: the good one renews by the second sweep", async () => {
    const { membership } = await sellOnline(shop, anna, monthly);
    const due = periodStart(membership.starts_at, 2);
    const { db } = await shardOf(shop.ws.id);
    const columns = (
      await db.prepare("pragma table_info(customer_packages)").all<{ name: string }>()
    ).results.map((c) => c.name);
    const old = Date.now() - 2 * RETRY_AFTER_MS;
    const noCard: string[] = [];
    const stuck: string[] = [];
    const plant = [];
    for (let i = 0; i < 51; i++) {
      const id = crypto.randomUUID();
      const card = i % 2 === 1;
      (card ? stuck : noCard).push(id);
      const values = columns.map((c) =>
        c === "id"
          ? "?1"
          : c === "next_charge_at"
            ? "?2"
            : !card && (c === "provider_customer" || c === "payment_method")
              ? "null"
              : c,
      );
      plant.push(
        db
          .prepare(
            `insert into customer_packages (${columns.join(", ")}) select ${values.join(", ")} from customer_packages where id = ?3`,
          )
          .bind(id, due - 1_000 - i, membership.id),
      );
      if (card)
        // A try unanswered for two days: the provider forgot its key; a person must look.
        plant.push(
          db
            .prepare(
              "insert into package_renewals (id, workspace_id, customer_package_id, period, amount, currency, status, attempt, created_at, updated_at) values (?, ?, ?, 2, 7900, 'EUR', 'pending', 1, ?, ?)",
            )
            .bind(crypto.randomUUID(), shop.ws.id, id, old, old),
        );
    }
    await db.batch(plant);
    const before = await renewalCharges(shop.ws.id);
    const t = due + second;
    await cronAt(t);
    await cronAt(t + second);
    expect((await membershipRow(membership.id)).period).toBe(2);
    const after = await renewalCharges(shop.ws.id);
    expect(after.succeeded.length - before.succeeded.length).toBe(1);
    for (const id of noCard) expect((await membershipRow(id)).next_charge_at).toBeNull();
    for (const id of stuck) {
      expect((await membershipRow(id)).next_charge_at).toBe(t + RETRY_AFTER_MS);
      expect(await renewalRow(id)).toMatchObject({ status: "pending", attempt: 1 });
    }
  });
});
