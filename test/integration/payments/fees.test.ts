import {
  createExecutionContext,
  createScheduledController,
  waitOnExecutionContext,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import worker from "../../../src/index";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { failpoints } from "../../../src/platform/failpoints";
import { reconcilePayments } from "../../../src/payments/reconcile";
import { settleCancelledBooking } from "../../../src/payments/settle";
import { createPublishableKey } from "../../helpers/keys";
import { until } from "../../helpers/messages";
import { and, eq } from "drizzle-orm";
import { messages, payments } from "../../../src/db/schema";
import {
  attachPayment,
  bookingPayment,
  db,
  paidBooking,
  settlementLedger,
  type PaymentSetUp,
} from "../../helpers/paid-booking";
import { createSalon, type Salon } from "../../helpers/salon";
import { stripeFault, stripeLedger, stripeRequests } from "../../helpers/stripe";
import { type Client, PUBLIC, send } from "../../helpers/http";
import { manageToken } from "../../../src/bookings/manage-link";
import { everyShard } from "../../helpers/every-shard";

const HOUR = 3_600_000;
const DECLINES_LATER = "4000000000000341";

let salon: Salon;
let pk: Client;
let day = 0;
/** A fresh weekday per booking, so bookings never meet on a calendar. */
const nextDate = () => {
  const d = new Date(Date.UTC(2031, 0, 6) + day * 7 * 86_400_000);
  day += 1;
  return d.toISOString().slice(0, 10);
};

beforeAll(async () => {
  salon = await createSalon(1);
  pk = (await createPublishableKey(salon.ws)).api;
});

afterEach(() => failpoints.disarmAll());

const book = (set: PaymentSetUp) => paidBooking(salon, nextDate(), "09:00", set);

const cancel = (api: Client, id: string, body: Record<string, unknown> = {}) =>
  api(`/bookings/${id}/status/cancel`, { method: "PUT", body });

/** The after-write settlement runs after the answer: wait until it wrote its answers. */
const settled = (bookingId: string) =>
  until(async () => {
    const payment = await bookingPayment(bookingId);
    const rows = await settlementLedger(bookingId);
    return payment?.settledAt && rows.every((r) => r.status !== "pending") ? rows : false;
  });

const feeMessages = (bookingId: string) =>
  db()
    .select({ channel: messages.channel, visitor: messages.visitor })
    .from(messages)
    .where(and(eq(messages.bookingId, bookingId), eq(messages.kind, "payment-fee-charged")));

/** The provider's money and requests for one booking (stripe-local keeps them per workspace). */
const atProvider = async (bookingId: string) => {
  const requests = (await stripeRequests(salon.ws.id)).filter(
    (r) => (r.params.metadata as Record<string, string> | undefined)?.booking_uuid === bookingId,
  );
  return {
    refunds: requests.filter((r) => r.path === "/v1/refunds" && r.status === 200 && !r.replayed),
    charges: requests.filter(
      (r) => r.path === "/v1/payment_intents" && r.status === 200 && !r.replayed,
    ),
    requests,
  };
};

describe("a customer's cancel of a booking paid online", () => {
  it("before the fee instant refunds everything paid online", async () => {
    const b = await book({ paid: 3000, cancelFeeFrom: Date.now() + 24 * HOUR });
    const res = await cancel(pk, b.bookingId);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await settled(b.bookingId)).toEqual([
      {
        kind: "refund",
        amount: 3000,
        status: "succeeded",
        failure_reason: null,
        key: `refund:${b.bookingId}:cancel`,
        ref: "re_",
      },
    ]);
    expect(await bookingPayment(b.bookingId)).toMatchObject({ paidOnline: 3000, refunded: 3000 });
    const provider = await atProvider(b.bookingId);
    expect(provider.refunds.map((r) => r.params.amount)).toEqual(["3000"]);
    expect(provider.charges).toEqual([]);
  });

  it("after it keeps the late fee out of the deposit and refunds the rest", async () => {
    const b = await book({ paid: 3000, cancelFeeFrom: Date.now() - HOUR });
    expect((await cancel(pk, b.bookingId)).status).toBe(200);
    expect(await settled(b.bookingId)).toEqual([
      expect.objectContaining({ kind: "refund", amount: 2000, status: "succeeded" }),
    ]);
    expect(await bookingPayment(b.bookingId)).toMatchObject({ paidOnline: 3000, refunded: 2000 });
  });

  it("after it, with only a card on file, charges the fee off-session to the saved card", async () => {
    const b = await book({ paid: 0, cancelFeeFrom: Date.now() - HOUR });
    expect((await cancel(pk, b.bookingId)).status).toBe(200);
    expect(await settled(b.bookingId)).toEqual([
      {
        kind: "late_cancel_fee",
        amount: 1000,
        status: "succeeded",
        failure_reason: null,
        key: `fee:${b.bookingId}:late_cancel_fee`,
        ref: "pi_",
      },
    ]);
    expect(await bookingPayment(b.bookingId)).toMatchObject({ paidOnline: 1000, refunded: 0 });
    const provider = await atProvider(b.bookingId);
    expect(provider.charges).toHaveLength(1);
    expect(provider.charges[0]?.params).toMatchObject({
      amount: "1000",
      customer: b.customer,
      payment_method: b.paymentMethod,
      off_session: "true",
      confirm: "true",
    });
    expect(provider.charges[0]?.idempotency_key).toBe(`fee:${b.bookingId}:late_cancel_fee`);
    // The customer is told, once, as the customer who canceled (their messages are bounded).
    const told = await feeMessages(b.bookingId);
    expect(told.length).toBeGreaterThan(0);
    expect(told.every((m) => m.visitor !== null)).toBe(true);
    expect(new Set(told.map((m) => m.channel)).size).toBe(told.length);
  });

  it("a deposit smaller than the fee is kept whole and the difference charged", async () => {
    const b = await book({ paid: 400, cancelFeeFrom: Date.now() - HOUR });
    expect((await cancel(pk, b.bookingId)).status).toBe(200);
    expect(await settled(b.bookingId)).toEqual([
      expect.objectContaining({ kind: "late_cancel_fee", amount: 600, status: "succeeded" }),
    ]);
    expect(await bookingPayment(b.bookingId)).toMatchObject({ paidOnline: 1000, refunded: 0 });
  });

  it("without a saved card the uncovered fee is a failed row (no_saved_card), nothing sent", async () => {
    const b = await book({ paid: 0, card: null, cancelFeeFrom: Date.now() - HOUR });
    expect((await cancel(pk, b.bookingId)).status).toBe(200);
    expect(await settled(b.bookingId)).toEqual([
      expect.objectContaining({
        kind: "late_cancel_fee",
        amount: 1000,
        status: "failed",
        failure_reason: "no_saved_card",
      }),
    ]);
    expect((await atProvider(b.bookingId)).requests).toEqual([]);
  });

  it("a declined off-session charge is recorded failed and the cancel stands", async () => {
    const b = await book({ paid: 0, card: DECLINES_LATER, cancelFeeFrom: Date.now() - HOUR });
    const res = await cancel(pk, b.bookingId);
    expect(res.status).toBe(200);
    const [row] = await settled(b.bookingId);
    expect(row).toMatchObject({ kind: "late_cancel_fee", amount: 1000, status: "failed" });
    expect(row?.failure_reason).toMatch(/decline/);
    expect(await bookingPayment(b.bookingId)).toMatchObject({ paidOnline: 0, refunded: 0 });
    expect((await salon.ws.api(`/bookings/${b.bookingId}`)).body).toMatchObject({
      is_canceled: true,
      canceled_by: "customer",
    });
    const ledger = await stripeLedger(salon.ws.id);
    expect(
      ledger.entries.filter((e) => e.kind === "charge_failed" && e.amount === 1000),
    ).not.toEqual([]);
  });

  it("the fee instant moves with a reschedule: late for the old start, early for the new", async () => {
    const date = nextDate();
    const b = await paidBooking(salon, date, "09:00", {
      paid: 3000,
      cancelFeeFrom: Date.now() - HOUR,
    });
    const later = new Date(Date.parse(`${date}T00:00:00Z`) + 7 * 86_400_000)
      .toISOString()
      .slice(0, 10);
    day += 1;
    const moved = await salon.ws.api(`/bookings/${b.bookingId}/reschedule`, {
      method: "PUT",
      body: { reserved_on: `${later}T09:00:00Z` },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect((await cancel(pk, b.bookingId)).status).toBe(200);
    expect(await settled(b.bookingId)).toEqual([
      expect.objectContaining({ kind: "refund", amount: 3000, status: "succeeded" }),
    ]);
  });

  it("through the manage link is settled as a customer's cancel", async () => {
    const b = await book({ paid: 3000, cancelFeeFrom: Date.now() - HOUR });
    const booking = (await salon.ws.api(`/bookings/${b.bookingId}`)).body;
    const token = await manageToken(env, {
      id: b.bookingId,
      workspaceId: salon.ws.id,
      customerId: booking.customer_uuid,
      endAt: Date.parse(booking.end_time),
    });
    const res = await send(`${PUBLIC}/manage/${token}/cancel`, {
      method: "POST",
      body: {},
      headers: { "cf-connecting-ip": "198.51.100.77" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await settled(b.bookingId)).toEqual([
      expect.objectContaining({ kind: "refund", amount: 2000, status: "succeeded" }),
    ]);
  });

  it("charge_fee with a publishable key is 422 on charge_fee and writes nothing", async () => {
    const b = await book({ paid: 3000, cancelFeeFrom: Date.now() - HOUR });
    for (const charge_fee of [true, false]) {
      const res = await cancel(pk, b.bookingId, { charge_fee });
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual(["charge_fee"]);
    }
    expect((await salon.ws.api(`/bookings/${b.bookingId}`)).body.is_canceled).toBe(false);
    expect(await bookingPayment(b.bookingId)).toMatchObject({ settledAt: null, refunded: 0 });
  });
});

describe("staff's cancel", () => {
  it("without charge_fee refunds everything, even after the fee instant", async () => {
    const b = await book({ paid: 3000, cancelFeeFrom: Date.now() - HOUR });
    expect((await cancel(salon.ws.api, b.bookingId)).status).toBe(200);
    expect(await settled(b.bookingId)).toEqual([
      expect.objectContaining({ kind: "refund", amount: 3000, status: "succeeded" }),
    ]);
  });

  it("with charge_fee charges the late fee before the fee instant too", async () => {
    const b = await book({ paid: 500, cancelFeeFrom: Date.now() + 48 * HOUR });
    const res = await cancel(salon.ws.api, b.bookingId, { charge_fee: true });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await settled(b.bookingId)).toEqual([
      expect.objectContaining({ kind: "late_cancel_fee", amount: 500, status: "succeeded" }),
    ]);
    const [stored] = await everyShard
      .prepare("SELECT cancel_charges_fee FROM bookings WHERE id = ?")
      .bind(b.bookingId)
      .raw();
    expect(stored).toEqual([1]);
  });

  it("a no-show (didnt_come with charge_fee) charges the no-show fee the same way", async () => {
    const b = await book({ paid: 1000, cancelFeeFrom: Date.now() + 48 * HOUR });
    const res = await cancel(salon.ws.api, b.bookingId, {
      cancel_reason: "didnt_come",
      charge_fee: true,
    });
    expect(res.status).toBe(200);
    expect(await settled(b.bookingId)).toEqual([
      {
        kind: "no_show_fee",
        amount: 1500,
        status: "succeeded",
        failure_reason: null,
        key: `fee:${b.bookingId}:no_show_fee`,
        ref: "pi_",
      },
    ]);
    expect(await bookingPayment(b.bookingId)).toMatchObject({ paidOnline: 2500, refunded: 0 });
    const told = await feeMessages(b.bookingId);
    expect(told.length).toBeGreaterThan(0);
    expect(told.every((m) => m.visitor === null)).toBe(true);
  });

  it("a booking without online payment hands over no settlement", async () => {
    const res = await salon.ws.api("/bookings", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        service_uuid: salon.cut.uuid,
        reserved_on: `${nextDate()}T09:00:00Z`,
        staffer_uuid: salon.staffers[0]?.uuid,
        customer_phone: "+49 151 23456789",
        customer_first_name: "Anna",
      },
    });
    expect(res.status).toBe(201);
    expect((await cancel(salon.ws.api, res.body.uuid, { charge_fee: true })).status).toBe(200);
    const result = await settleCancelledBooking(env, salon.ws.id, res.body.uuid);
    expect(result).toEqual({ settled: false, why: "no_payment" });
  });
});

describe("each fee at most once", () => {
  it("a customer's cancel and staff's no-show at once: one cancel wins, one settlement", async () => {
    const b = await book({ paid: 0, cancelFeeFrom: Date.now() - HOUR });
    failpoints.meet("booking.change.before_write", 2);
    const [byCustomer, byStaff] = await Promise.all([
      cancel(pk, b.bookingId),
      cancel(salon.ws.api, b.bookingId, { cancel_reason: "didnt_come", charge_fee: true }),
    ]);
    expect([byCustomer.status, byStaff.status].sort()).toEqual([200, 409]);
    const rows = await settled(b.bookingId);
    expect(rows).toHaveLength(1);
    const winner = byCustomer.status === 200 ? "late_cancel_fee" : "no_show_fee";
    expect(rows[0]).toMatchObject({ kind: winner, status: "succeeded" });
    expect((await atProvider(b.bookingId)).charges).toHaveLength(1);
  });

  it("two settlers at once (the hook and the cron): one claims, one provider call", async () => {
    const made = await salon.ws.api("/bookings", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        service_uuid: salon.cut.uuid,
        reserved_on: `${nextDate()}T12:00:00Z`,
        staffer_uuid: salon.staffers[0]?.uuid,
        customer_phone: "+49 151 23456789",
        customer_first_name: "Anna",
      },
    });
    expect((await cancel(salon.ws.api, made.body.uuid, { charge_fee: true })).status).toBe(200);
    // Paid after the cancel's write: nothing settled it yet, and both settlers find it unsettled.
    const b = await attachPayment(salon, made.body.uuid, { paid: 0, cancelFeeFrom: null });
    const results = await Promise.all([
      settleCancelledBooking(env, salon.ws.id, b.bookingId),
      settleCancelledBooking(env, salon.ws.id, b.bookingId),
      reconcilePayments(env),
    ]);
    expect(results.filter((r) => "settled" in r && r.settled)).toHaveLength(1);
    expect(await settlementLedger(b.bookingId)).toEqual([
      expect.objectContaining({ kind: "late_cancel_fee", amount: 1000, status: "succeeded" }),
    ]);
    expect((await atProvider(b.bookingId)).requests).toHaveLength(1);
  });

  it("settling again, or reconciling, changes nothing and calls the provider no more", async () => {
    const b = await book({ paid: 3000, cancelFeeFrom: Date.now() - HOUR });
    expect((await cancel(pk, b.bookingId)).status).toBe(200);
    const rows = await settled(b.bookingId);
    const before = (await atProvider(b.bookingId)).requests.length;
    expect(await settleCancelledBooking(env, salon.ws.id, b.bookingId)).toEqual({
      settled: false,
      why: "settled_before",
    });
    await reconcilePayments(env, { staleAfterMs: 0 });
    expect(await settlementLedger(b.bookingId)).toEqual(rows);
    expect((await atProvider(b.bookingId)).requests).toHaveLength(before);
    expect(await bookingPayment(b.bookingId)).toMatchObject({ paidOnline: 3000, refunded: 2000 });
  });
});

/**
 * The fault suite: each provider step (the refund, the off-session fee) with
 * its call failing before the provider acted, after it acted (the answer
 * lost), and with our write of the answer lost (the worker stopped between
 * the call and the ledger). Whatever the fault, the provider acts exactly
 * once and our ledger says what it did.
 */
describe.each([
  {
    step: "refund",
    path: "/v1/refunds",
    set: (n: number) => ({ paid: 3000 + n, cancelFeeFrom: Date.now() + 24 * HOUR }),
    row: (n: number) => ({ kind: "refund", amount: 3000 + n }),
    money: (n: number) => ({ paidOnline: 3000 + n, refunded: 3000 + n }),
    acted: "refund",
  },
  {
    step: "fee",
    path: "/v1/payment_intents",
    set: (n: number) => ({ paid: 0, lateFee: 1000 + n, cancelFeeFrom: Date.now() - HOUR }),
    row: (n: number) => ({ kind: "late_cancel_fee", amount: 1000 + n }),
    money: (n: number) => ({ paidOnline: 1000 + n, refunded: 0 }),
    acted: "charge_succeeded",
  },
])("the $step call under faults", (step) => {
  /** Each booking's amount is its own, so the provider's ledger tells its movements apart. */
  let serial = 0;
  const book = async () => {
    serial += 1;
    const n = serial;
    const b = await paidBooking(salon, nextDate(), "09:00", step.set(n));
    return { ...b, row: step.row(n), money: step.money(n) };
  };
  const path = step.path;

  /** The provider moved the money exactly once, and our ledger says so. */
  const exactlyOnce = async (b: Awaited<ReturnType<typeof book>>) => {
    const [ours] = await settlementLedger(b.bookingId);
    expect(ours).toMatchObject({ ...b.row, status: "succeeded" });
    expect(await bookingPayment(b.bookingId)).toMatchObject(b.money);
    const moved = (await stripeLedger(salon.ws.id)).entries.filter(
      (e) => e.kind === step.acted && e.source === "api" && e.amount === b.row.amount,
    );
    expect(moved).toHaveLength(1);
    const [row] = await db()
      .select({ ref: payments.providerRef })
      .from(payments)
      .where(eq(payments.idempotencyKey, ours?.key ?? ""));
    expect(row?.ref).toBe(step.acted === "refund" ? moved[0]?.id : moved[0]?.payment_intent);
    const keys = new Set((await atProvider(b.bookingId)).requests.map((r) => r.idempotency_key));
    expect([...keys]).toEqual([ours?.key]);
  };

  it("the worker stops before the claim: nothing written, the reconcile settles the cancel", async () => {
    const b = await book();
    const hits = failpoints.hits("payments.settle.before_claim");
    failpoints.arm("payments.settle.before_claim", (id) => id === b.bookingId);
    expect((await cancel(pk, b.bookingId)).status).toBe(200);
    await until(async () => failpoints.hits("payments.settle.before_claim") > hits);
    expect(await bookingPayment(b.bookingId)).toMatchObject({ settledAt: null });
    expect(await settlementLedger(b.bookingId)).toEqual([]);
    expect((await atProvider(b.bookingId)).requests).toEqual([]);
    expect(await reconcilePayments(env)).toMatchObject({ settled: 1 });
    await exactlyOnce(b);
  });

  it("the worker stops after the claim, before the call: the reconcile makes the call", async () => {
    const b = await book();
    const hits = failpoints.hits("payments.settle.claimed");
    failpoints.arm("payments.settle.claimed", (id) => id === b.bookingId);
    expect((await cancel(pk, b.bookingId)).status).toBe(200);
    await until(async () => failpoints.hits("payments.settle.claimed") > hits);
    expect(await settlementLedger(b.bookingId)).toEqual([
      expect.objectContaining({ ...b.row, status: "pending" }),
    ]);
    expect((await atProvider(b.bookingId)).requests).toEqual([]);
    expect(await reconcilePayments(env, { staleAfterMs: 0 })).toMatchObject({ repeated: 1 });
    await exactlyOnce(b);
  });

  it("fails before the provider acted (both tries): pending, then the reconcile finishes it", async () => {
    const b = await book();
    await stripeFault({ method: "POST", path, when: "before", times: 2, workspace: salon.ws.id });
    expect((await cancel(pk, b.bookingId)).status).toBe(200);
    await until(async () => (await atProvider(b.bookingId)).requests.length >= 2);
    await until(async () => (await bookingPayment(b.bookingId))?.settledAt);
    expect(await settlementLedger(b.bookingId)).toEqual([
      expect.objectContaining({ ...b.row, status: "pending" }),
    ]);
    expect(await reconcilePayments(env, { staleAfterMs: 0 })).toMatchObject({ repeated: 1 });
    await exactlyOnce(b);
  });

  it("acts, then the answer is lost: the client's retry under the same key gets it", async () => {
    const b = await book();
    await stripeFault({ method: "POST", path, when: "after", times: 1, workspace: salon.ws.id });
    expect((await cancel(pk, b.bookingId)).status).toBe(200);
    await settled(b.bookingId);
    await exactlyOnce(b);
    expect((await atProvider(b.bookingId)).requests.some((r) => r.replayed)).toBe(true);
  });

  it("answered, but our write of it lost: the reconcile repeats the call, the provider replays", async () => {
    const b = await book();
    const hits = failpoints.hits("payments.call.answered");
    failpoints.arm("payments.call.answered", (key) => key.includes(b.bookingId));
    expect((await cancel(pk, b.bookingId)).status).toBe(200);
    await until(async () => failpoints.hits("payments.call.answered") > hits);
    await until(async () => (await bookingPayment(b.bookingId))?.settledAt);
    expect(await settlementLedger(b.bookingId)).toEqual([
      expect.objectContaining({ ...b.row, status: "pending" }),
    ]);
    // Not yet stale: a row only just written is left to the call that is making it.
    expect(await reconcilePayments(env)).toMatchObject({ repeated: 0 });
    expect(await reconcilePayments(env, { staleAfterMs: 0 })).toMatchObject({ repeated: 1 });
    await exactlyOnce(b);
    expect((await atProvider(b.bookingId)).requests.map((r) => r.replayed)).toEqual([false, true]);
  });

  it("after our write: a replayed effect and a reconcile change nothing", async () => {
    const b = await book();
    expect((await cancel(pk, b.bookingId)).status).toBe(200);
    await settled(b.bookingId);
    const before = (await atProvider(b.bookingId)).requests.length;
    await settleCancelledBooking(env, salon.ws.id, b.bookingId);
    await reconcilePayments(env, { staleAfterMs: 0 });
    await exactlyOnce(b);
    expect((await atProvider(b.bookingId)).requests).toHaveLength(before);
  });
});

describe("the reconcile loop", () => {
  it("settles a canceled booking nobody settled, from the Worker's cron", async () => {
    // The payment row appears after the cancel: the cancel's own write had nothing to hand over.
    const res = await salon.ws.api("/bookings", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        service_uuid: salon.cut.uuid,
        reserved_on: `${nextDate()}T11:00:00Z`,
        staffer_uuid: salon.staffers[0]?.uuid,
        customer_phone: "+49 151 23456789",
        customer_first_name: "Anna",
      },
    });
    expect(res.status).toBe(201);
    expect((await cancel(pk, res.body.uuid)).status).toBe(200);
    const { bookingId: b } = await attachPayment(salon, res.body.uuid, {
      paid: 3000,
      cancelFeeFrom: Date.now() + 24 * HOUR,
    });
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "* * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect(await settlementLedger(b)).toEqual([
      expect.objectContaining({ kind: "refund", amount: 3000, status: "succeeded" }),
    ]);
  });
});
