import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { Client } from "../../helpers/http";
import { createPublishableKey } from "../../helpers/keys";
import { until } from "../../helpers/messages";
import { createSalon, customer, type Salon } from "../../helpers/salon";
import { deliverEvents, postEvent, sessionOf } from "../../helpers/payments";
import { bookingPayment, paidBooking } from "../../helpers/paid-booking";
import { payCheckout, stripeDeliveries } from "../../helpers/stripe";
import { admin } from "../../helpers/http";
import { createDb } from "../../../src/db/client";
import { payments } from "../../../src/db/schema";
import { writeOutcome } from "../../../src/payments/fee-message";
import { recordOutcome } from "../../../src/payments/queries/ledger";
import { everyShard, shardOf } from "../../helpers/every-shard";

/**
 * Money paid online in the POS, through the real flow (a publishable key's
 * reservation, its hosted checkout paid on stripe-local, the provider's event
 * posted to the webhook): the location's online account takes it, complete
 * counts it, the payment events and the customer's messages tell it, once.
 */

const HOUR = 3_600_000;
let salon: Salon;
let deposit: { uuid: string };
let prepay: { uuid: string };
let cash: { uuid: string };
let week = 0;
const nextDay = () => {
  week += 1;
  return new Date(Date.UTC(2030, 8, 2) + week * 7 * 86_400_000).toISOString().slice(0, 10);
};

const service = async (name: string, price: number, payment_policy: Record<string, unknown>) => {
  const res = await salon.ws.api("/services", {
    method: "POST",
    body: {
      name,
      duration: 60,
      price,
      payment_policy,
      location_uuids: [salon.location.uuid],
      staffer_uuids: salon.staffers.map((s) => s.uuid),
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { uuid: string };
};

const accountsOf = async (location: string) =>
  (await salon.ws.api(`/accounts?location_uuid=${location}`)).body.data as {
    uuid: string;
    type: string;
    name: string;
    payment_method: string;
    requires_action: boolean;
  }[];

const onlineAccount = async () => {
  const online = (await accountsOf(salon.location.uuid)).filter((a) => a.type === "online");
  expect(online).toHaveLength(1);
  return online[0] as { uuid: string };
};

const balance = async (accountId: string) =>
  (
    await everyShard.prepare("SELECT balance FROM accounts WHERE id = ?").bind(accountId).first<{
      balance: number;
    }>()
  )?.balance;

const transactions = async (accountId: string, bookingId: string) =>
  (
    await everyShard
      .prepare(
        "SELECT amount, order_id IS NOT NULL AS has_order FROM account_transactions WHERE account_id = ? AND booking_id = ?",
      )
      .bind(accountId, bookingId)
      .all<{ amount: number; has_order: number }>()
  ).results;

const paymentEvents = async (bookingId: string) =>
  (
    await everyShard
      .prepare(
        "SELECT type, payload FROM events WHERE type LIKE 'payment-%' AND json_extract(payload, '$.booking_uuid') = ? ORDER BY created_at",
      )
      .bind(bookingId)
      .all<{ type: string; payload: string }>()
  ).results.map((e) => ({ type: e.type, data: JSON.parse(e.payload) as Record<string, unknown> }));

/** Books `serviceId` the way a customer does: reservation, checkout, paid page, provider event. */
async function paidOnline(serviceId: string, times = ["10:00"]) {
  const api: Client = (await createPublishableKey(salon.ws)).api;
  const day = nextDay();
  const held = await api("/reservations", {
    method: "POST",
    body: {
      location_uuid: salon.location.uuid,
      items: times.map((time) => ({
        datetime_start: `${day}T${time}:00Z`,
        services: [{ service_uuid: serviceId }],
      })),
    },
  });
  expect(held.status, JSON.stringify(held.body)).toBe(201);
  const started = await api(`/reservations/${held.body.uuid}/checkout`, {
    method: "POST",
    body: {
      ...customer(),
      success_url: "https://salon.example/done",
      cancel_url: "https://salon.example/back",
    },
  });
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  expect((await payCheckout(sessionOf(started.body.checkout_url))).status).toBe("complete");
  const deliveries = await stripeDeliveries(salon.ws.id);
  const completed = deliveries.filter((d) => d.type === "checkout.session.completed");
  for (const d of deliveries) expect((await postEvent(d)).status).toBe(200);
  const after = await api(`/reservations/${held.body.uuid}`);
  const bookingId = after.body.checkout.booking_uuid as string;
  expect(bookingId).toMatch(/^[0-9a-f-]{36}$/);
  return { bookingId, completed };
}

const complete = (bookingId: string, body: Record<string, unknown>) =>
  salon.ws.api(`/bookings/${bookingId}/status/complete`, { method: "PUT", body });

beforeAll(async () => {
  salon = await createSalon(1);
  deposit = await service("Balayage", 8000, {
    mode: "deposit",
    deposit: { amount: 2000 },
    late_cancel: { window_minutes: 1440, fee: { amount: 1500 } },
    no_show_fee: { amount: 4000 },
  });
  prepay = await service("Gloss", 3000, { mode: "prepay" });
  const till = await admin(`/workspaces/${salon.ws.id}/accounts`, {
    method: "POST",
    body: { location_uuid: salon.location.uuid, name: "Till", type: "cash" },
  });
  expect(till.status).toBe(201);
  cash = till.body;
});

describe("the online account", () => {
  it("comes with every new location: type online, paid as online_account", async () => {
    const annex = await admin(`/workspaces/${salon.ws.id}/locations`, {
      method: "POST",
      body: { name: "Annex", timezone: "Europe/Berlin" },
    });
    expect(annex.status).toBe(201);
    for (const location of [salon.location.uuid, annex.body.uuid as string]) {
      expect((await accountsOf(location)).filter((a) => a.type === "online")).toEqual([
        {
          uuid: expect.any(String),
          location_uuid: location,
          name: "Online",
          type: "online",
          requires_action: true,
          payment_method: "online_account",
        },
      ]);
    }
  });

  it("takes a deposit paid at checkout once, with a transaction row, however often the event comes", async () => {
    const online = await onlineAccount();
    const before = (await balance(online.uuid)) ?? 0;
    const { bookingId, completed } = await paidOnline(deposit.uuid);
    expect(await balance(online.uuid)).toBe(before + 2000);
    expect(await transactions(online.uuid, bookingId)).toEqual([{ amount: 2000, has_order: 1 }]);
    // The provider sends the event again: handled once, nothing moves twice.
    for (const d of completed) await postEvent(d);
    await deliverEvents(salon.ws.id);
    expect(await balance(online.uuid)).toBe(before + 2000);
    expect(await transactions(online.uuid, bookingId)).toHaveLength(1);
    const events = await paymentEvents(bookingId);
    expect(events).toEqual([
      {
        type: "payment-succeeded",
        data: {
          uuid: expect.any(String),
          booking_uuid: bookingId,
          kind: "deposit",
          amount: 2000,
          currency: "EUR",
          status: "succeeded",
          provider: "stripe",
          provider_ref: expect.stringMatching(/^pi_/),
          failure_reason: null,
          created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
        },
      },
    ]);
  });
});

describe("the confirmation of a booking paid online", () => {
  it("names what was paid and the fees, in the customer's e-mail", async () => {
    const { bookingId } = await paidOnline(deposit.uuid);
    const res = await salon.ws.api(`/messages?booking_uuid=${bookingId}&kind=booking-confirmation`);
    expect(res.status).toBe(200);
    const [email] = res.body.data;
    expect(email.channel).toBe("email");
    expect(email.body).toContain(
      "Total: €80.00\nPaid online: €20.00. Cancelling less than 24 hours before costs €15.00; a no-show costs €40.00.\n\nAdd it to your calendar",
    );
  });

  it("says nothing of money for a booking that took none", async () => {
    const res = await salon.ws.api("/bookings", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        service_uuid: salon.cut.uuid,
        reserved_on: `${nextDay()}T10:00:00Z`,
        staffer_uuid: salon.staffers[0]?.uuid,
        ...customer(),
      },
    });
    expect(res.status).toBe(201);
    const told = await salon.ws.api(
      `/messages?booking_uuid=${res.body.uuid}&kind=booking-confirmation`,
    );
    expect(told.body.data[0].body).toContain("Total: €35.00\n\nAdd it to your calendar");
    expect(told.body.data[0].body).not.toContain("online");
  });
});

describe("complete of a booking paid online", () => {
  it("a deposit: paid_amount defaults to the rest, the order counts both", async () => {
    const { bookingId } = await paidOnline(deposit.uuid);
    const till = (await balance(cash.uuid)) ?? 0;
    const refused = await complete(bookingId, {});
    expect(refused.status).toBe(422);
    expect(Object.keys(refused.body.errors)).toEqual(["account_uuid"]);
    // The till's money never lands on the online account.
    const online = await complete(bookingId, { account_uuid: (await onlineAccount()).uuid });
    expect(online.status).toBe(422);
    expect(Object.keys(online.body.errors)).toEqual(["account_uuid"]);
    const res = await complete(bookingId, { account_uuid: cash.uuid });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.order).toMatchObject({ amount_paid: 8000, total: 8000 });
    expect(await balance(cash.uuid)).toBe(till + 6000);
    const order = await everyShard
      .prepare(
        "SELECT status, account_paid_amount, online_paid_amount, payment_method FROM orders WHERE id = ?",
      )
      .bind(res.body.order.uuid)
      .first();
    expect(order).toEqual({
      status: "paid",
      account_paid_amount: 6000,
      online_paid_amount: 2000,
      payment_method: "cash_account",
    });
  });

  it("a prepayment: nothing is due, it completes without an account, on the online account", async () => {
    const online = await onlineAccount();
    const { bookingId } = await paidOnline(prepay.uuid);
    const moved = (await balance(online.uuid)) ?? 0;
    const res = await complete(bookingId, {});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.order).toMatchObject({ amount_paid: 3000, total: 3000 });
    // Complete only counts it: the money was booked on the online account when it was paid.
    expect(await balance(online.uuid)).toBe(moved);
    const order = await everyShard
      .prepare(
        "SELECT status, account_id, account_paid_amount, online_paid_amount, payment_method FROM orders WHERE id = ?",
      )
      .bind(res.body.order.uuid)
      .first();
    expect(order).toEqual({
      status: "paid",
      account_id: online.uuid,
      account_paid_amount: 0,
      online_paid_amount: 3000,
      payment_method: "online_account",
    });
  });
});

describe("complete of a cart paid online", () => {
  it("each booking brings its own share to the one order", async () => {
    const { bookingId } = await paidOnline(deposit.uuid, ["10:00", "12:00"]);
    const { results } = await everyShard
      .prepare(
        "SELECT id FROM bookings WHERE order_id = (SELECT order_id FROM bookings WHERE id = ?) ORDER BY start_at",
      )
      .bind(bookingId)
      .all<{ id: string }>();
    const [first, second] = results.map((r) => r.id);
    if (!first || !second) throw new Error("the cart made fewer than two bookings");
    expect((await bookingPayment(first))?.paidOnline).toBe(2000);
    expect((await bookingPayment(second))?.paidOnline).toBe(2000);
    const till = (await balance(cash.uuid)) ?? 0;
    const one = await complete(first, { account_uuid: cash.uuid });
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    expect(one.body.order).toMatchObject({ amount_paid: 8000, total: 16000 });
    const two = await complete(second, { account_uuid: cash.uuid });
    expect(two.status, JSON.stringify(two.body)).toBe(200);
    expect(two.body.order).toMatchObject({ amount_paid: 16000, total: 16000 });
    expect(await balance(cash.uuid)).toBe(till + 12000);
    const order = await everyShard
      .prepare("SELECT status, account_paid_amount, online_paid_amount FROM orders WHERE id = ?")
      .bind(two.body.order.uuid)
      .first();
    expect(order).toEqual({ status: "paid", account_paid_amount: 12000, online_paid_amount: 4000 });
  });
});

describe("a fee charged", () => {
  it("credits the online account, tells the customer and the webhooks once", async () => {
    const online = await onlineAccount();
    const before = (await balance(online.uuid)) ?? 0;
    const b = await paidBooking(salon, nextDay(), "09:00", {
      paid: 0,
      lateFee: 1200,
      cancelFeeFrom: Date.now() + 48 * HOUR,
    });
    const res = await salon.ws.api(`/bookings/${b.bookingId}/status/cancel`, {
      method: "PUT",
      body: { charge_fee: true },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const events = await until(async () => {
      const found = await paymentEvents(b.bookingId);
      return found.length > 0 ? found : false;
    });
    expect(events.map((e) => [e.type, e.data.kind, e.data.amount, e.data.status])).toEqual([
      ["payment-succeeded", "late_cancel_fee", 1200, "succeeded"],
    ]);
    expect(await bookingPayment(b.bookingId)).toMatchObject({ paidOnline: 1200 });
    expect(await balance(online.uuid)).toBe(before + 1200);
    const told = await salon.ws.api(
      `/messages?booking_uuid=${b.bookingId}&kind=payment-fee-charged`,
    );
    expect(told.body.data.map((m: { channel: string }) => m.channel)).toEqual(["email"]);
    expect(told.body.data[0]).toMatchObject({
      subject: "A fee for your booking at Main street",
      to: "anna@example.com",
    });
    expect(told.body.data[0].body).toContain(
      "a fee of €12.00 was charged for a late cancellation:",
    );
  });
});

describe("an outcome written again (a retry, a reconcile, two writers at once)", () => {
  it("moves the money, tells the webhooks and the customer once", async () => {
    // What the payment code writes is one batch on the workspace's shard.
    const db = createDb((await shardOf(salon.ws.id)).db);
    const online = await onlineAccount();
    const b = await paidBooking(salon, nextDay(), "09:00", {
      paid: 0,
      noShowFee: 700,
      cancelFeeFrom: null,
    });
    const before = (await balance(online.uuid)) ?? 0;
    const now = Date.now();
    const row = {
      id: crypto.randomUUID(),
      workspaceId: salon.ws.id,
      bookingId: b.bookingId,
      kind: "no_show_fee" as const,
      amount: 700,
      currency: "EUR",
      status: "pending" as const,
      provider: "stripe" as const,
      providerRef: null,
      idempotencyKey: `fee:${b.bookingId}:no_show_fee`,
      failureReason: null,
      createdAt: now,
      updatedAt: now,
    };
    await db.insert(payments).values(row);
    const answer = { status: "succeeded" as const, providerRef: "pi_test", failureReason: null };
    const changed = await Promise.all([
      writeOutcome(db, row, answer),
      writeOutcome(db, row, answer),
    ]);
    expect(changed.sort()).toEqual([false, true]);
    await db.batch(recordOutcome(db, row, answer, Date.now()));
    expect(await writeOutcome(db, row, answer)).toBe(false);
    expect(
      await writeOutcome(db, row, { status: "failed", providerRef: null, failureReason: "late" }),
    ).toBe(false);

    expect(await balance(online.uuid)).toBe(before + 700);
    expect(await transactions(online.uuid, b.bookingId)).toEqual([{ amount: 700, has_order: 1 }]);
    expect(await bookingPayment(b.bookingId)).toMatchObject({ paidOnline: 700, refunded: 0 });
    expect((await paymentEvents(b.bookingId)).map((e) => [e.type, e.data.provider_ref])).toEqual([
      ["payment-succeeded", "pi_test"],
    ]);
    const told = await salon.ws.api(
      `/messages?booking_uuid=${b.bookingId}&kind=payment-fee-charged`,
    );
    expect(told.body.data.map((m: { channel: string }) => m.channel)).toEqual(["email"]);
    const [stored] = await db.select().from(payments).where(eq(payments.id, row.id));
    expect(stored).toMatchObject({ status: "succeeded", providerRef: "pi_test" });
  });

  it("a refund debits the online account and is told as payment-refunded; a failure moves nothing", async () => {
    // What the payment code writes is one batch on the workspace's shard.
    const db = createDb((await shardOf(salon.ws.id)).db);
    const online = await onlineAccount();
    const b = await paidBooking(salon, nextDay(), "11:00", { paid: 0, cancelFeeFrom: null });
    const before = (await balance(online.uuid)) ?? 0;
    const now = Date.now();
    const base = {
      workspaceId: salon.ws.id,
      bookingId: b.bookingId,
      currency: "EUR",
      status: "pending" as const,
      provider: "stripe" as const,
      providerRef: null,
      failureReason: null,
      createdAt: now,
      updatedAt: now,
    };
    const refund = {
      ...base,
      id: crypto.randomUUID(),
      kind: "refund" as const,
      amount: 400,
      idempotencyKey: `refund:${b.bookingId}:test`,
    };
    const fee = {
      ...base,
      id: crypto.randomUUID(),
      kind: "late_cancel_fee" as const,
      amount: 900,
      idempotencyKey: `fee:${b.bookingId}:late_cancel_fee`,
    };
    await db.insert(payments).values([refund, fee]);
    expect(
      await writeOutcome(db, refund, {
        status: "succeeded",
        providerRef: "re_1",
        failureReason: null,
      }),
    ).toBe(true);
    expect(
      await writeOutcome(db, fee, {
        status: "failed",
        providerRef: null,
        failureReason: "card_declined",
      }),
    ).toBe(true);
    expect(
      await writeOutcome(db, fee, {
        status: "succeeded",
        providerRef: "pi_late",
        failureReason: null,
      }),
    ).toBe(false);

    expect(await balance(online.uuid)).toBe(before - 400);
    expect(await transactions(online.uuid, b.bookingId)).toEqual([{ amount: -400, has_order: 1 }]);
    expect(await bookingPayment(b.bookingId)).toMatchObject({ paidOnline: 0, refunded: 400 });
    expect(
      (await paymentEvents(b.bookingId)).map((e) => [e.type, e.data.kind, e.data.failure_reason]),
    ).toEqual([
      ["payment-refunded", "refund", null],
      ["payment-failed", "late_cancel_fee", "card_declined"],
    ]);
    const told = await salon.ws.api(
      `/messages?booking_uuid=${b.bookingId}&kind=payment-fee-charged`,
    );
    expect(told.body.data).toEqual([]);
  });
});

describe("a location without an online account", () => {
  it("gets one with the first money paid online to it", async () => {
    // What the payment code writes is one batch on the workspace's shard.
    const db = createDb((await shardOf(salon.ws.id)).db);
    const existing = await onlineAccount();
    const b = await paidBooking(salon, nextDay(), "13:00", { paid: 0, cancelFeeFrom: null });
    // As a location made outside the API would be: no online account.
    await everyShard
      .prepare("UPDATE accounts SET type = 'card' WHERE id = ?")
      .bind(existing.uuid)
      .run();
    try {
      const now = Date.now();
      const row = {
        id: crypto.randomUUID(),
        workspaceId: salon.ws.id,
        bookingId: b.bookingId,
        kind: "late_cancel_fee" as const,
        amount: 600,
        currency: "EUR",
        status: "pending" as const,
        provider: "stripe" as const,
        providerRef: null,
        idempotencyKey: `fee:${b.bookingId}:late_cancel_fee`,
        failureReason: null,
        createdAt: now,
        updatedAt: now,
      };
      await db.insert(payments).values(row);
      const answer = { status: "succeeded" as const, providerRef: "pi_new", failureReason: null };
      expect(await writeOutcome(db, row, answer)).toBe(true);
      expect(await writeOutcome(db, row, answer)).toBe(false);
      const made = (await accountsOf(salon.location.uuid)).filter((a) => a.type === "online");
      expect(made).toEqual([expect.objectContaining({ name: "Online", type: "online" })]);
      const created = made[0] as { uuid: string };
      expect(created.uuid).not.toBe(existing.uuid);
      expect(await balance(created.uuid)).toBe(600);
      expect(await transactions(created.uuid, b.bookingId)).toEqual([
        { amount: 600, has_order: 1 },
      ]);
      await everyShard
        .prepare("DELETE FROM account_transactions WHERE account_id = ?")
        .bind(created.uuid)
        .run();
      await everyShard.prepare("DELETE FROM accounts WHERE id = ?").bind(created.uuid).run();
    } finally {
      await everyShard
        .prepare("UPDATE accounts SET type = 'online' WHERE id = ?")
        .bind(existing.uuid)
        .run();
    }
  });
});
