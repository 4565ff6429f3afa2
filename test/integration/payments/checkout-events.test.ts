import { beforeAll, describe, expect, it } from "vitest";
import { deliverEvents, postEvent, sessionOf } from "../../helpers/payments";
import { createSalon, type Salon } from "../../helpers/salon";
import {
  dashboardRefund,
  expireCheckout,
  payCheckout,
  stripeDeliveries,
  stripeLedger,
} from "../../helpers/stripe";
import {
  bookedFrom,
  countRows,
  days,
  expectCleanRequests,
  expectLedgersAgree,
  ourLedger,
  paidService,
  payAndDeliver,
  postDelivery,
  reserve,
  signedEvent,
  present,
  startCheckout,
  timingsOf,
  widget,
} from "../../helpers/checkout-flow";
import { everyShard } from "../../helpers/every-shard";

/**
 * The provider's events as they really arrive: replayed, out of order,
 * forged, about sessions nobody made, of types nobody handles; the session's
 * own expiry; refunds made in the provider's dashboard.
 */

let salon: Salon;
let deposit: string;
const nextDay = days("2033-01-03");

beforeAll(async () => {
  salon = await createSalon(1);
  deposit = await paidService(salon, {
    mode: "deposit",
    deposit: { percent: 25 },
    no_show_fee: { amount: 3000 },
  });
});

/** A visitor's reservation of the deposit service at 10:00 on a fresh day, with its open checkout. */
async function opened(date = nextDay()) {
  const api = await widget(salon);
  const held = await reserve(api, salon, date, [["10:00", deposit]]);
  const started = await startCheckout(api, held.uuid);
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  return { api, held, date, url: started.body.checkout_url as string, started };
}

const bookingsUsing = async (reservation: string) => {
  const row = await everyShard
    .prepare(
      "select count(*) as n from bookings where id in (select booking_id from booking_payments where reservation_id = ?)",
    )
    .bind(reservation)
    .first<{ n: number }>();
  return row?.n ?? 0;
};

describe("provider events", () => {
  it("a replayed event is handled once: the replay answers duplicate and writes nothing", async () => {
    const { api, held, url } = await opened();
    await payCheckout(sessionOf(url));
    const deliveries = await stripeDeliveries(salon.ws.id);
    const completed = present(
      deliveries.find((d) => d.type === "checkout.session.completed"),
      "a completed event",
    );
    const first = await postEvent(completed);
    expect(first).toMatchObject({ status: 200, body: { handled: "handled" } });
    const ledger = await ourLedger(salon.ws.id);
    const again = await postEvent(completed);
    expect(again).toMatchObject({ status: 200, body: { handled: "duplicate" } });
    expect(await ourLedger(salon.ws.id)).toEqual(ledger);
    expect(await bookingsUsing(held.uuid)).toBe(1);
    expect((await bookedFrom(api, held.uuid)).status).toBe("complete");
  });

  it("checkout.session.expired delivered after completed: the booking stays (the session fetched back is complete)", async () => {
    const { api, held, url } = await opened();
    await payAndDeliver(salon.ws.id, url);
    const booked = await bookedFrom(api, held.uuid);
    expect(booked.status).toBe("complete");
    const late = await postDelivery(
      await signedEvent("checkout.session.expired", {
        id: sessionOf(url),
        object: "checkout.session",
        status: "expired",
      }),
    );
    expect(late.status).toBe(200);
    expect(await bookedFrom(api, held.uuid)).toEqual(booked);
    const booking = await salon.ws.api(`/bookings/${booked.booking_uuid}`);
    expect(booking.status).toBe(200);
    expect(booking.body.status).not.toBe("cancelled");
  });

  it("an expired session's completed event never books: what the provider says when asked back decides", async () => {
    const { api, held, url } = await opened();
    await expireCheckout(sessionOf(url));
    // Taken and dropped: only the forged "completed" below reaches the Worker.
    await stripeDeliveries(salon.ws.id);
    const forged = await postDelivery(
      await signedEvent("checkout.session.completed", {
        id: sessionOf(url),
        object: "checkout.session",
        status: "complete",
        payment_status: "paid",
        amount_total: 2000,
        currency: "eur",
        metadata: { workspace_id: salon.ws.id, reservation_uuid: held.uuid },
      }),
    );
    expect(forged.status).toBe(200);
    expect(await bookingsUsing(held.uuid)).toBe(0);
    // The provider's answer (expired) was acted on instead: the checkout is over.
    expect(await bookedFrom(api, held.uuid)).toEqual({ status: "expired", booking_uuid: null });
  });

  it("a bad or missing signature is 400 and writes nothing", async () => {
    const { api, held, url } = await opened();
    await payCheckout(sessionOf(url));
    const completed = present(
      (await stripeDeliveries(salon.ws.id)).find((d) => d.type === "checkout.session.completed"),
      "a completed event",
    );
    const before = await Promise.all([countRows("payment_provider_events"), countRows("payments")]);
    const bad = await postDelivery({ payload: completed.payload, signature: "t=1,v1=00" });
    expect(bad.status).toBe(400);
    expect(bad.body?.code).toBe("invalid_signature");
    const missing = await postDelivery({ payload: completed.payload, signature: null });
    expect(missing.status).toBe(400);
    const [t, v1] = completed.signature.split(",");
    const tampered = await postDelivery({
      payload: completed.payload.replace('"complete"', '"expired"'),
      signature: `${t},${v1}`,
    });
    expect(tampered.status).toBe(400);
    const after = await Promise.all([countRows("payment_provider_events"), countRows("payments")]);
    expect(after).toEqual(before);
    expect((await bookedFrom(api, held.uuid)).status).toBe("open");
    // The genuine delivery still books (the refused ones did not mark its id handled).
    expect((await postEvent(completed)).body.handled).toBe("handled");
    expect(await bookingsUsing(held.uuid)).toBe(1);
  });

  it("a signature older than the tolerance (a captured event sent again later), or a body over 256 KB: 400, nothing written", async () => {
    const before = await countRows("payment_provider_events");
    const stale = await postDelivery(
      await signedEvent(
        "customer.created",
        { id: "cus_1", object: "customer" },
        Math.floor(Date.now() / 1000) - 600,
      ),
    );
    expect(stale.status).toBe(400);
    const huge = await postDelivery(
      await signedEvent("customer.created", {
        id: "cus_2",
        object: "customer",
        description: "x".repeat(300 * 1024),
      }),
    );
    expect(huge.status).toBe(400);
    expect(await countRows("payment_provider_events")).toBe(before);
  });

  it("an event for a session we do not know, and an unknown event type: 200, ignored, nothing booked", async () => {
    const bookings = await countRows("bookings");
    const stranger = await postDelivery(
      await signedEvent("checkout.session.completed", {
        id: "cs_test_nobody_made_this",
        object: "checkout.session",
        status: "complete",
        metadata: { workspace_id: salon.ws.id },
      }),
    );
    expect(stranger).toMatchObject({ status: 200, body: { handled: "ignored" } });
    const unknown = await postDelivery(
      await signedEvent("customer.subscription.created", { id: "sub_123", object: "subscription" }),
    );
    expect(unknown).toMatchObject({ status: 200, body: { handled: "ignored" } });
    expect(await countRows("bookings")).toBe(bookings);
  });

  it("checkout.session.expired ends the hold: the time is free again, the reservation shows expired", async () => {
    const { api, held, url, date } = await opened();
    await expireCheckout(sessionOf(url));
    const { answers } = await deliverEvents(salon.ws.id);
    expect(answers).toMatchObject([
      { type: "checkout.session.expired", status: 200, body: { handled: "handled" } },
    ]);
    expect(await bookedFrom(api, held.uuid)).toEqual({ status: "expired", booking_uuid: null });
    const other = await widget(salon);
    const again = await reserve(other, salon, date, [["10:00", deposit]]);
    expect(again.uuid).not.toBe(held.uuid);
    // The expired checkout cannot be started again: its hold is gone.
    const retry = await startCheckout(api, held.uuid);
    expect(retry.status).toBe(409);
    expect(retry.body.code).toBe("reservation_expired");
  });

  it("charge.refunded from a dashboard refund: a refund row, partially then fully refunded; a replay writes no second row", async () => {
    const { api, held, url } = await opened();
    await payAndDeliver(salon.ws.id, url);
    const bookingId = present((await bookedFrom(api, held.uuid)).booking_uuid, "a booking");
    const intent = await everyShard
      .prepare("select payment_intent from booking_payments where booking_id = ?")
      .bind(bookingId)
      .first<{ payment_intent: string }>();
    const paymentIntent = present(intent?.payment_intent, "a payment intent");
    expect(paymentIntent).toMatch(/^pi_/);

    await dashboardRefund(paymentIntent, 500);
    const deliveries = await stripeDeliveries(salon.ws.id);
    const refunded = present(
      deliveries.find((d) => d.type === "charge.refunded"),
      "a charge.refunded event",
    );
    expect((await postEvent(refunded)).body.handled).toBe("handled");
    const rows = () =>
      salon.ws
        .api(`/bookings/${bookingId}/payments`)
        .then((r) => r.body.data as Record<string, unknown>[]);
    expect(await rows()).toMatchObject([
      { kind: "deposit", amount: 2000, status: "succeeded" },
      { kind: "refund", amount: 500, status: "succeeded" },
    ]);
    let booking = (await salon.ws.api(`/bookings/${bookingId}`)).body;
    expect(booking.payment).toMatchObject({ status: "partially_refunded", refunded: 500 });

    expect((await postEvent(refunded)).body.handled).toBe("duplicate");
    // The same refund in an event of another id (the provider's retry is the same id; a
    // second charge.refunded names every refund of the charge): still no second row.
    const resent = await postDelivery(
      await signedEvent("charge.refunded", JSON.parse(refunded.payload).data.object),
    );
    expect(resent.status).toBe(200);
    expect(await rows()).toHaveLength(2);

    await dashboardRefund(paymentIntent);
    await deliverEvents(salon.ws.id);
    expect(await rows()).toMatchObject([
      { kind: "deposit", amount: 2000 },
      { kind: "refund", amount: 500 },
      { kind: "refund", amount: 1500, status: "succeeded" },
    ]);
    booking = (await salon.ws.api(`/bookings/${bookingId}`)).body;
    expect(booking.payment).toMatchObject({
      status: "refunded",
      paid_online: 2000,
      refunded: 2000,
    });
    const provider = await stripeLedger(salon.ws.id);
    expect(provider.entries.filter((e) => e.payment_intent === paymentIntent)).toMatchObject([
      { kind: "charge_succeeded", amount: 2000 },
      { kind: "refund", amount: 500, source: "dashboard" },
      { kind: "refund", amount: 1500, source: "dashboard" },
    ]);
  });

  it("a dashboard refund of a cart's one payment is shared over its bookings, never more than each was paid", async () => {
    const prepay = await paidService(salon, { mode: "prepay" }, 5000, "Perm");
    const api = await widget(salon);
    const held = await reserve(api, salon, nextDay(), [
      ["09:00", deposit],
      ["13:00", prepay],
    ]);
    const started = await startCheckout(api, held.uuid);
    expect(started.status).toBe(201);
    await payAndDeliver(salon.ws.id, started.body.checkout_url);
    const paidBy = await everyShard
      .prepare(
        "select booking_id, payment_intent, paid_online from booking_payments where reservation_id = ? order by paid_online",
      )
      .bind(held.uuid)
      .all<{ booking_id: string; payment_intent: string; paid_online: number }>();
    expect(paidBy.results.map((r) => r.paid_online)).toEqual([2000, 5000]);
    const intent = present(paidBy.results[0]?.payment_intent, "the payment intent");
    await dashboardRefund(intent, 3000);
    await deliverEvents(salon.ws.id);
    const refunds = async () =>
      (
        await everyShard
          .prepare(
            "select booking_id, amount from payments where kind = 'refund' and status = 'succeeded' and booking_id in (select booking_id from booking_payments where reservation_id = ?)",
          )
          .bind(held.uuid)
          .all<{ booking_id: string; amount: number }>()
      ).results;
    const first = await refunds();
    expect(first.reduce((s, r) => s + r.amount, 0)).toBe(3000);
    await dashboardRefund(intent);
    await deliverEvents(salon.ws.id);
    const all = await refunds();
    expect(all.reduce((s, r) => s + r.amount, 0)).toBe(7000);
    for (const b of paidBy.results) {
      const back = all
        .filter((r) => r.booking_id === b.booking_id)
        .reduce((s, r) => s + r.amount, 0);
      expect(back).toBe(b.paid_online);
      const shown = (await salon.ws.api(`/bookings/${b.booking_id}`)).body.payment;
      expect(shown).toMatchObject({ status: "refunded", refunded: b.paid_online });
    }
  });

  it("Server-Timing of a checkout and of the webhook delivery that books", async () => {
    const api = await widget(salon);
    const held = await reserve(api, salon, nextDay(), [["10:00", deposit]]);
    const started = await startCheckout(api, held.uuid);
    expect(started.status).toBe(201);
    const checkout = timingsOf(started.headers);
    await payCheckout(sessionOf(started.body.checkout_url));
    const deliveries = await stripeDeliveries(salon.ws.id);
    const completed = present(
      deliveries.find((d) => d.type === "checkout.session.completed"),
      "a completed event",
    );
    const delivered = await postDelivery(completed);
    expect(delivered.status).toBe(200);
    expect(delivered.body?.handled).toBe("handled");
    const webhook = timingsOf(delivered.headers);
    console.log(JSON.stringify({ measured: "server-timing", checkout, webhook }));
    expect(checkout.d1RoundTrips).toBeGreaterThan(0);
    expect(webhook.d1RoundTrips).toBeGreaterThan(0);
  });

  it("the provider's money equals our ledger's; no request broke its API", async () => {
    await expectCleanRequests(salon.ws.id);
    await expectLedgersAgree(salon.ws.id);
  });
});
