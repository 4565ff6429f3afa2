import { beforeAll, describe, expect, it } from "vitest";
import { sessionOf } from "../../helpers/payments";
import { createSalon, type Salon } from "../../helpers/salon";
import { stripeLedger, stripeRequests } from "../../helpers/stripe";
import {
  bookedFrom,
  days,
  expectCleanRequests,
  expectLedgersAgree,
  linesOf,
  ourLedger,
  paidService,
  present,
  payAndDeliver,
  reserve,
  startCheckout,
  widget,
} from "../../helpers/checkout-flow";

/**
 * Every payment mode through the hosted checkout, one reservation each: what
 * the provider was asked for (its recorded requests), what it took (its
 * ledger), and what the booking and our ledger say afterwards.
 */

let salon: Salon;
const nextDay = days("2032-01-05");
const services = { depositPercent: "", depositAmount: "", prepay: "", cardOnFile: "" };

beforeAll(async () => {
  salon = await createSalon(1);
  services.depositPercent = await paidService(salon, {
    mode: "deposit",
    deposit: { percent: 25 },
  });
  services.depositAmount = await paidService(salon, {
    mode: "deposit",
    deposit: { amount: 1500 },
    late_cancel: { window_minutes: 1440, fee: { percent: 50 } },
  });
  services.prepay = await paidService(salon, { mode: "prepay" }, 6000, "Cut and style");
  services.cardOnFile = await paidService(salon, {
    mode: "card_on_file",
    late_cancel: { window_minutes: 120, fee: { amount: 1000 } },
    no_show_fee: { percent: 100 },
  });
});

/** The session POST the provider received for a reservation (the one that answered 200). */
async function sessionRequest(reservation: string) {
  const sessions = (await stripeRequests(salon.ws.id)).filter(
    (r) =>
      r.method === "POST" &&
      r.path === "/v1/checkout/sessions" &&
      (r.params.metadata as Record<string, string> | undefined)?.reservation_uuid === reservation,
  );
  expect(sessions).toHaveLength(1);
  return present(sessions[0], "the session request");
}

/** Reserve one service, check out, pay, deliver: answers the booking made and the session asked. */
async function payFor(service: string, card?: string) {
  const api = await widget(salon);
  const held = await reserve(api, salon, nextDay(), [["10:00", service]]);
  const started = await startCheckout(api, held.uuid);
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  const { answers } = await payAndDeliver(salon.ws.id, started.body.checkout_url, card);
  expect(answers.every((a) => a.status === 200)).toBe(true);
  const checkout = await bookedFrom(api, held.uuid);
  expect(checkout.status).toBe("complete");
  const bookingId = present(checkout.booking_uuid, "a booking");
  const booking = (await salon.ws.api(`/bookings/${bookingId}`)).body;
  const ledger = (await ourLedger(salon.ws.id)).filter((r) => r.booking_id === bookingId);
  return { held, bookingId, booking, ledger, request: await sessionRequest(held.uuid), started };
}

describe("a checkout per payment mode", () => {
  it("deposit by percent: 25% of the price, payment mode, no card kept without fees", async () => {
    const { held, booking, ledger, request } = await payFor(services.depositPercent);
    expect(held.payment).toEqual({
      mode: "deposit",
      amount_due_now: 2000,
      currency: "EUR",
      late_cancel: null,
      no_show_fee: null,
    });
    expect(request.params).toMatchObject({
      mode: "payment",
      client_reference_id: held.uuid,
      metadata: { workspace_id: salon.ws.id, reservation_uuid: held.uuid },
    });
    const [line] = linesOf(request.params);
    expect(line?.price_data).toMatchObject({ currency: "eur", unit_amount: "2000" });
    expect((request.params.payment_intent_data as Record<string, unknown>).setup_future_usage).toBe(
      undefined,
    );
    expect(booking.payment).toMatchObject({
      mode: "deposit",
      status: "paid",
      paid_online: 2000,
      refunded: 0,
      currency: "EUR",
      cancel_fee_from: null,
    });
    expect(ledger).toMatchObject([{ kind: "deposit", amount: 2000, status: "succeeded" }]);
  });

  it("deposit by amount with a late-cancel fee: the card is kept for it (setup_future_usage)", async () => {
    const { held, booking, ledger, request } = await payFor(services.depositAmount);
    expect(held.payment).toMatchObject({
      mode: "deposit",
      amount_due_now: 1500,
      late_cancel: { window_minutes: 1440, fee: 4000 },
    });
    const [line] = linesOf(request.params);
    expect(line?.price_data?.unit_amount).toBe("1500");
    expect(request.params.payment_intent_data).toMatchObject({
      setup_future_usage: "off_session",
    });
    expect(booking.payment).toMatchObject({ mode: "deposit", status: "paid", paid_online: 1500 });
    expect(Date.parse(booking.payment.cancel_fee_from)).toBe(
      Date.parse(booking.start_time) - 1440 * 60_000,
    );
    expect(ledger).toMatchObject([{ kind: "deposit", amount: 1500, status: "succeeded" }]);
  });

  it("prepay: the whole price, recorded as a prepayment", async () => {
    const { held, booking, ledger, request } = await payFor(services.prepay);
    expect(held.payment).toMatchObject({ mode: "prepay", amount_due_now: 6000 });
    expect(request.params.mode).toBe("payment");
    expect(booking.payment).toMatchObject({ mode: "prepay", status: "paid", paid_online: 6000 });
    expect(ledger).toMatchObject([{ kind: "prepayment", amount: 6000, status: "succeeded" }]);
  });

  it("card on file (fees only): a setup session, nothing charged, card_saved of 0", async () => {
    const before = await stripeLedger(salon.ws.id);
    const { held, booking, ledger, request } = await payFor(services.cardOnFile);
    expect(held.payment).toEqual({
      mode: "card_on_file",
      amount_due_now: 0,
      currency: "EUR",
      late_cancel: { window_minutes: 120, fee: 1000 },
      no_show_fee: 8000,
    });
    expect(request.params.mode).toBe("setup");
    expect(request.params.line_items).toBeUndefined();
    expect(request.params.payment_intent_data).toBeUndefined();
    expect(booking.payment).toMatchObject({
      mode: "card_on_file",
      status: "card_on_file",
      paid_online: 0,
      refunded: 0,
    });
    expect(ledger).toMatchObject([{ kind: "card_saved", amount: 0, status: "succeeded" }]);
    const after = await stripeLedger(salon.ws.id);
    expect(after.charged).toBe(before.charged);
  });

  it("a cart of a deposit and a prepayment pays once: two bookings, each its share, the strictest mode", async () => {
    const api = await widget(salon);
    const held = await reserve(api, salon, nextDay(), [
      ["09:00", services.depositPercent],
      ["13:00", services.prepay],
    ]);
    expect(held.payment).toMatchObject({ mode: "prepay", amount_due_now: 2000 + 6000 });
    const before = await stripeLedger(salon.ws.id);
    const started = await startCheckout(api, held.uuid);
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const request = await sessionRequest(held.uuid);
    expect(request.params.mode).toBe("payment");
    const [line] = linesOf(request.params);
    expect(line?.price_data?.unit_amount).toBe("8000");
    await payAndDeliver(salon.ws.id, started.body.checkout_url);
    const after = await stripeLedger(salon.ws.id);
    expect(after.charged - before.charged).toBe(8000);

    const checkout = await bookedFrom(api, held.uuid);
    expect(checkout.status).toBe("complete");
    const rows = (await ourLedger(salon.ws.id)).filter((r) =>
      r.idempotency_key.startsWith(`checkout:${sessionOf(started.body.checkout_url)}:`),
    );
    expect(rows).toHaveLength(2);
    expect(new Set(rows.map((r) => r.booking_id)).size).toBe(2);
    expect(rows.reduce((s, r) => s + r.amount, 0)).toBe(8000);
    const bookings = await Promise.all(
      rows.map(async (r) => (await salon.ws.api(`/bookings/${r.booking_id}`)).body),
    );
    const paidOnline = bookings.map((b) => b.payment.paid_online).sort((a, b) => a - b);
    expect(paidOnline).toEqual([2000, 6000]);
    const kinds = rows.map((r) => [r.amount, r.kind] as const).sort((a, b) => a[0] - b[0]);
    // Each booking's row is named by its own policy: the deposit's a deposit, the rest a prepayment.
    expect(kinds).toEqual([
      [2000, "deposit"],
      [6000, "prepayment"],
    ]);
    expect(bookings.map((b) => b.payment.mode).sort()).toEqual(["deposit", "prepay"]);
    expect(rows.map((r) => r.booking_id)).toContain(checkout.booking_uuid);
  });

  it("a policy changed between the reservation and the payment: the booking keeps the terms the customer saw and paid", async () => {
    const changing = await paidService(salon, {
      mode: "deposit",
      deposit: { amount: 1000 },
      no_show_fee: { amount: 3000 },
    });
    const api = await widget(salon);
    const held = await reserve(api, salon, nextDay(), [["10:00", changing]]);
    const patched = await salon.ws.api(`/services/${changing}`, {
      method: "PATCH",
      body: {
        payment_policy: {
          mode: "card_on_file",
          late_cancel: { window_minutes: 2880, fee: { amount: 7000 } },
          no_show_fee: { amount: 9000 },
        },
      },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    const started = await startCheckout(api, held.uuid);
    expect(started.status).toBe(201);
    await payAndDeliver(salon.ws.id, started.body.checkout_url);
    const checkout = await bookedFrom(api, held.uuid);
    const booking = (await salon.ws.api(`/bookings/${checkout.booking_uuid}`)).body;
    expect(booking.payment).toEqual({
      mode: "deposit",
      status: "paid",
      paid_online: 1000,
      refunded: 0,
      currency: "EUR",
      policy: { mode: "deposit", deposit: { amount: 1000 }, no_show_fee: { amount: 3000 } },
      cancel_fee_from: null,
    });
    const ledger = (await ourLedger(salon.ws.id)).filter(
      (r) => r.booking_id === checkout.booking_uuid,
    );
    expect(ledger).toMatchObject([{ kind: "deposit", amount: 1000, status: "succeeded" }]);
  });

  it("a secret key's checkout works too", async () => {
    const held = await reserve(salon.ws.api, salon, nextDay(), [["10:00", services.prepay]]);
    expect(held.payment).toMatchObject({ mode: "prepay", amount_due_now: 6000 });
    const started = await startCheckout(salon.ws.api, held.uuid);
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    await payAndDeliver(salon.ws.id, started.body.checkout_url);
    const checkout = await bookedFrom(salon.ws.api, held.uuid);
    expect(checkout.status).toBe("complete");
    const booking = await salon.ws.api(`/bookings/${checkout.booking_uuid}`);
    expect(booking.body.payment).toMatchObject({
      mode: "prepay",
      status: "paid",
      paid_online: 6000,
    });
  });

  it("a reservation with nothing to pay: checkout is 422, nothing asked of the provider", async () => {
    const api = await widget(salon);
    const held = await reserve(api, salon, nextDay(), [["10:00", salon.cut.uuid]]);
    expect(held.payment).toBeNull();
    const before = (await stripeRequests(salon.ws.id)).length;
    const res = await startCheckout(api, held.uuid);
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body.code).toBe("validation_failed");
    expect((await stripeRequests(salon.ws.id)).length).toBe(before);
  });

  it("the provider got no request that breaks its API, each POST with an Idempotency-Key, and took what our ledger says", async () => {
    const requests = await expectCleanRequests(salon.ws.id);
    const keys = requests
      .filter((r) => r.method === "POST" && r.path === "/v1/checkout/sessions")
      .map((r) => r.idempotency_key);
    expect(keys.every((k) => /^checkout:[0-9a-f-]{36}:1$/.test(k ?? ""))).toBe(true);
    const customers = requests
      .filter((r) => r.method === "POST" && r.path === "/v1/customers")
      .map((r) => r.idempotency_key);
    expect(customers.every((k) => /^customer:[0-9a-f-]{36}:1$/.test(k ?? ""))).toBe(true);
    await expectLedgersAgree(salon.ws.id);
  });
});
