import { beforeAll, describe, expect, it } from "vitest";
import {
  bookedFrom,
  expectCleanRequests,
  expectLedgersAgree,
  ourLedger,
  paidService,
  payAndDeliver,
  reserve,
  startCheckout,
  widget,
} from "../../helpers/checkout-flow";
import type { Client } from "../../helpers/http";
import { until } from "../../helpers/messages";
import { bookingPayment } from "../../helpers/paid-booking";
import { deliverEvents } from "../../helpers/payments";
import { createSalon, type Salon } from "../../helpers/salon";

/**
 * Refunds and fees through the whole flow: a customer's reservation paid on
 * stripe-local's hosted page, the provider's event posted to the webhook (the
 * booking and its payment made as the checkout makes them), the cancel, and
 * the provider's events about the refund or the failed charge posted back
 * (the webhook must not count our own refund twice). The provider's money
 * and ours agree at the end.
 */

const DAY = 86_400_000;
let salon: Salon;
let deposit: string;
let onFile: string;

/** The next weekday at least a day ahead: a week's late-cancel window has started by then. */
function soon(): string {
  let t = Date.now() + DAY;
  while ([0, 6].includes(new Date(t).getUTCDay())) t += DAY;
  return new Date(t).toISOString().slice(0, 10);
}

beforeAll(async () => {
  salon = await createSalon(1);
  const fees = {
    late_cancel: { window_minutes: 10_080, fee: { amount: 1500 } },
    no_show_fee: { amount: 3000 },
  };
  deposit = await paidService(salon, { mode: "deposit", deposit: { amount: 2000 }, ...fees });
  onFile = await paidService(salon, { mode: "card_on_file", ...fees }, 8000, "Colour");
});

/** A customer's booking of `service` at `time` on `date`, paid (or its card saved) at checkout. */
async function booked(api: Client, service: string, date: string, time: string, card?: string) {
  const held = await reserve(api, salon, date, [[time, service]]);
  const opened = await startCheckout(api, held.uuid);
  expect(opened.status, JSON.stringify(opened.body)).toBe(201);
  await payAndDeliver(salon.ws.id, opened.body.checkout_url, card);
  const { booking_uuid } = await bookedFrom(api, held.uuid);
  expect(booking_uuid).not.toBeNull();
  return booking_uuid as string;
}

/** Waits for the after-write settlement, then posts the provider's events about it. */
async function settledAndTold(bookingId: string) {
  await until(async () => {
    const rows = (await ourLedger(salon.ws.id)).filter((r) => r.booking_id === bookingId);
    return (
      (await bookingPayment(bookingId))?.settledAt && rows.every((r) => r.status !== "pending")
    );
  });
  const { answers } = await deliverEvents(salon.ws.id);
  expect(answers.filter((a) => a.status !== 200)).toEqual([]);
  return (await ourLedger(salon.ws.id))
    .filter((r) => r.booking_id === bookingId)
    .map(({ kind, amount, status }) => ({ kind, amount, status }));
}

describe("refunds and fees through the checkout and the webhook", () => {
  it("a customer's late cancel keeps the fee out of the deposit and refunds the rest, once", async () => {
    const api = await widget(salon);
    const id = await booked(api, deposit, soon(), "10:00");
    const payment = (await salon.ws.api(`/bookings/${id}`)).body.payment;
    expect(Date.parse(payment.cancel_fee_from)).toBeLessThan(Date.now());
    const res = await api(`/bookings/${id}/status/cancel`, { method: "PUT", body: {} });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await settledAndTold(id)).toEqual([
      { kind: "deposit", amount: 2000, status: "succeeded" },
      { kind: "refund", amount: 500, status: "succeeded" },
    ]);
    // The provider's charge.refunded about our own refund counted nothing more.
    expect(await bookingPayment(id)).toMatchObject({ paidOnline: 2000, refunded: 500 });
    expect((await salon.ws.api(`/bookings/${id}`)).body.payment).toMatchObject({
      status: "partially_refunded",
      paid_online: 2000,
      refunded: 500,
    });
    const ledger = await salon.ws.api(`/bookings/${id}/payments`);
    expect(ledger.status).toBe(200);
    expect(ledger.body.data.map((r: { kind: string }) => r.kind)).toEqual(["deposit", "refund"]);
    await expectLedgersAgree(salon.ws.id);
    await expectCleanRequests(salon.ws.id);
  });

  it("staff's no-show charges the saved card; a card that fails later is a failed row, the cancel stands", async () => {
    const api = await widget(salon);
    const date = soon();
    const good = await booked(api, onFile, date, "12:00");
    const failing = await booked(api, onFile, date, "14:00", "4000000000000341");
    for (const id of [good, failing]) {
      const res = await salon.ws.api(`/bookings/${id}/status/cancel`, {
        method: "PUT",
        body: { cancel_reason: "didnt_come", charge_fee: true },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    expect(await settledAndTold(good)).toEqual([
      { kind: "card_saved", amount: 0, status: "succeeded" },
      { kind: "no_show_fee", amount: 3000, status: "succeeded" },
    ]);
    expect(await settledAndTold(failing)).toEqual([
      { kind: "card_saved", amount: 0, status: "succeeded" },
      { kind: "no_show_fee", amount: 3000, status: "failed" },
    ]);
    expect((await salon.ws.api(`/bookings/${failing}`)).body).toMatchObject({
      is_canceled: true,
      cancel_reason: "didnt_come",
    });
    expect(await bookingPayment(failing)).toMatchObject({ paidOnline: 0, refunded: 0 });
    await expectLedgersAgree(salon.ws.id);
    await expectCleanRequests(salon.ws.id);
  });
});
