import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import {
  bookedFrom,
  checkoutRow,
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
import { deliverEvents } from "../../helpers/payments";
import { createSalon, type Salon } from "../../helpers/salon";
import { stripeLedger, stripeRequests } from "../../helpers/stripe";
import { reconcilePayments } from "../../../src/payments/reconcile";
import { everyShard } from "../../helpers/every-shard";

/**
 * A storm of the customer's and the front desk's money operations at once:
 * 40 bookings paid (or their cards saved) through the hosted checkout, then
 * every one of them ended at the same moment by a customer's cancel, a staff
 * cancel with or without the fee, or a customer's cancel and a staff no-show
 * together. Afterwards the provider's money equals the ledger's: each charge
 * and refund the provider made is one succeeded row, each fee at most once a
 * booking, and no call without an Idempotency-Key.
 */

const DAY = 86_400_000;
const BOOKINGS = 40;
let salon: Salon;
let services: { deposit: string; prepay: string; onFile: string };

/** The next weekdays from tomorrow: a week's late-cancel window has begun for all of them. */
function weekdaysAhead(n: number): string[] {
  const out: string[] = [];
  for (let t = Date.now() + DAY; out.length < n; t += DAY) {
    if (![0, 6].includes(new Date(t).getUTCDay())) out.push(new Date(t).toISOString().slice(0, 10));
  }
  return out;
}

beforeAll(async () => {
  salon = await createSalon(1);
  services = {
    deposit: await paidService(salon, {
      mode: "deposit",
      deposit: { amount: 2000 },
      late_cancel: { window_minutes: 10_080, fee: { amount: 1500 } },
      no_show_fee: { amount: 3000 },
    }),
    // Its window is an hour: a customer's cancel of it comes before the fee and is refunded.
    prepay: await paidService(
      salon,
      {
        mode: "prepay",
        late_cancel: { window_minutes: 60, fee: { amount: 1000 } },
        no_show_fee: { percent: 100 },
      },
      5000,
      "Massage",
    ),
    onFile: await paidService(
      salon,
      {
        mode: "card_on_file",
        late_cancel: { window_minutes: 10_080, fee: { amount: 1500 } },
        no_show_fee: { amount: 2500 },
      },
      8000,
      "Colour",
    ),
  };
}, 60_000);

interface Paid {
  id: string;
  api: Client;
}

async function bookPaid(i: number, date: string, time: string): Promise<Paid> {
  const api = await widget(salon);
  const service = [services.deposit, services.prepay, services.onFile][i % 3] ?? "";
  const held = await reserve(api, salon, date, [[time, service]]);
  const opened = await startCheckout(api, held.uuid);
  expect(opened.status, JSON.stringify(opened.body)).toBe(201);
  // Every seventh customer's card pays now and fails every later charge.
  await payAndDeliver(
    salon.ws.id,
    opened.body.checkout_url,
    i % 7 === 6 ? "4000000000000341" : undefined,
  );
  // Another customer's flow may have taken this one's event and be posting it right now.
  const { booking_uuid } = await until(async () => {
    const checkout = await bookedFrom(api, held.uuid);
    return checkout.status === "complete" && checkout;
  });
  expect(booking_uuid, JSON.stringify(await checkoutRow(held.uuid))).not.toBeNull();
  return { id: booking_uuid as string, api };
}

const cancelAs = (api: Client, id: string, body: Record<string, unknown>) =>
  api(`/bookings/${id}/status/cancel`, { method: "PUT", body });

describe("a storm of checkouts, cancels and no-shows", () => {
  it("the provider's charges and refunds equal the ledger's, each fee once", async () => {
    const dates = weekdaysAhead(5);
    const slots = dates.flatMap((date) =>
      ["08", "09", "10", "11", "12", "13", "14", "15", "16"].map((h) => [date, `${h}:00`] as const),
    );
    const paid: Paid[] = [];
    // Ten customers at a time through reserve, checkout, the hosted page and the webhook.
    for (let start = 0; start < BOOKINGS; start += 10) {
      paid.push(
        ...(await Promise.all(
          Array.from({ length: 10 }, (_, k) => {
            const i = start + k;
            const [date, time] = slots[i] ?? ["", ""];
            return bookPaid(i, date, time);
          }),
        )),
      );
    }

    // Every booking ended at once: customer cancels, staff cancels with and without the fee,
    // and a customer's cancel racing a staff no-show on the same booking.
    const ends = await Promise.all(
      paid.flatMap(({ id, api }, i) => {
        switch (i % 4) {
          case 0:
            return [cancelAs(api, id, {})];
          case 1:
            return [cancelAs(salon.ws.api, id, { cancel_reason: "canceled" })];
          case 2:
            return [cancelAs(salon.ws.api, id, { cancel_reason: "canceled", charge_fee: true })];
          default:
            return [
              cancelAs(api, id, {}),
              cancelAs(salon.ws.api, id, { cancel_reason: "didnt_come", charge_fee: true }),
            ];
        }
      }),
    );
    expect(ends.filter((r) => r.status >= 500)).toEqual([]);

    // The settlements run after the answers; the cron's reconcile finishes what they left.
    await until(async () => {
      const open = await everyShard
        .prepare(
          `select count(*) as n from booking_payments p join bookings b on b.id = p.booking_id
         where b.workspace_id = ? and b.is_canceled = 1 and p.settled_at is null`,
        )
        .bind(salon.ws.id)
        .first<{ n: number }>();
      const pending = (await ourLedger(salon.ws.id)).filter((r) => r.status === "pending");
      return open?.n === 0 && pending.length === 0;
    }, 60_000);
    await reconcilePayments(env);
    const { answers } = await deliverEvents(salon.ws.id);
    expect(answers.filter((a) => a.status !== 200)).toEqual([]);

    const { provider, ours } = await expectLedgersAgree(salon.ws.id);
    await expectCleanRequests(salon.ws.id);
    const succeeded = ours.filter((r) => r.status === "succeeded");
    const charges = succeeded.filter((r) => r.kind !== "refund" && r.kind !== "card_saved");
    const refunds = succeeded.filter((r) => r.kind === "refund");
    expect(charges.length).toBe(provider.payments);
    expect(refunds.length).toBe(provider.refunds);
    expect(charges.reduce((s, r) => s + r.amount, 0)).toBe(provider.charged);
    expect(refunds.reduce((s, r) => s + r.amount, 0)).toBe(provider.refunded);
    // At most one fee and one cancel refund per booking, however the cancels raced.
    for (const { id } of paid) {
      const rows = ours.filter((r) => r.booking_id === id);
      expect(rows.filter((r) => r.kind.endsWith("_fee")).length).toBeLessThanOrEqual(1);
      expect(rows.filter((r) => r.kind === "refund").length).toBeLessThanOrEqual(1);
    }
    const requests = await stripeRequests(salon.ws.id);
    const byPath = new Map<string, number>();
    for (const r of requests) {
      const key = `${r.method} ${r.path.replace(/\/(cs|pi|re|seti|cus)_[\w]+/g, "/{id}")}`;
      byPath.set(key, (byPath.get(key) ?? 0) + 1);
    }
    const operations = BOOKINGS * 4 + ends.length;
    console.log(
      JSON.stringify(
        {
          operations,
          provider_requests: requests.length,
          provider_requests_by_path: Object.fromEntries(byPath),
          provider: {
            charges: provider.payments,
            charged: provider.charged,
            refunds: provider.refunds,
            refunded: provider.refunded,
            declined: provider.failed,
          },
          ledger: {
            rows: ours.length,
            charges: charges.length,
            refunds: refunds.length,
            failed: ours.filter((r) => r.status === "failed").length,
          },
        },
        null,
        2,
      ),
    );
    expect(operations).toBeGreaterThanOrEqual(200);
    expect((await stripeLedger(salon.ws.id)).failed).toBe(
      ours.filter((r) => r.status === "failed" && r.kind.endsWith("_fee")).length,
    );
  }, 180_000);
});
