import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import {
  bookedFrom,
  checkoutBody,
  days,
  paidService,
  reserve,
  widget,
} from "../../helpers/checkout-flow";
import { until } from "../../helpers/messages";
import { d1RoundTrips } from "../../helpers/http";
import { sessionOf } from "../../helpers/payments";
import { createSalon, type Salon } from "../../helpers/salon";
import { payCheckout, stripeDeliveries, stripeRequests } from "../../helpers/stripe";
import { failpoints } from "../../../src/platform/failpoints";
import { settleCancelledBooking } from "../../../src/payments/settle";
import type { Env } from "../../../src/platform/env";
import { everyShard } from "../../helpers/every-shard";

/**
 * What the money paths cost: provider calls (Server-Timing `provider`) and D1
 * round trips of a checkout, of the webhook delivery that books, and of the
 * settlement that charges a no-show fee. Each is pinned so a change that adds
 * a call or a round trip is seen; the numbers are printed for the record.
 */

let salon: Salon;
let onFile: string;
const nextDay = days("2031-06-02");

const providerCalls = (headers: Headers) =>
  Number(/provider;dur=[\d.]+;desc="(\d+) calls"/.exec(headers.get("server-timing") ?? "")?.[1]);

/** everyShard counting round trips: each statement run alone, and each batch, is one. */
function countingEnv(): { env: Env; trips: () => number } {
  let trips = 0;
  const db = everyShard;
  const counted = new Proxy(db, {
    get(target, key) {
      if (key === "batch")
        return (s: D1PreparedStatement[]) => {
          trips += 1;
          return target.batch(s);
        };
      if (key === "prepare")
        return (q: string) =>
          new Proxy(target.prepare(q), {
            get(st, k) {
              const value = Reflect.get(st, k) as unknown;
              if (typeof value !== "function") return value;
              if (["first", "all", "run", "raw"].includes(String(k)))
                return (...a: unknown[]) => {
                  trips += 1;
                  return (value as (...x: unknown[]) => unknown).apply(st, a);
                };
              return (value as (...x: unknown[]) => unknown).bind(st);
            },
          });
      const value = Reflect.get(target, key) as unknown;
      return typeof value === "function" ? (value as () => unknown).bind(target) : value;
    },
  });
  return { env: { ...(env as Env), DB: counted }, trips: () => trips };
}

beforeAll(async () => {
  salon = await createSalon(1);
  onFile = await paidService(salon, {
    mode: "card_on_file",
    no_show_fee: { amount: 2500 },
  });
});

describe("what money costs in calls and round trips", () => {
  it("a checkout, the webhook that books, and a no-show fee's settlement", async () => {
    const api = await widget(salon);
    const held = await reserve(api, salon, nextDay(), [["10:00", onFile]]);
    const started = await api(`/reservations/${held.uuid}/checkout`, {
      method: "POST",
      body: checkoutBody(),
    });
    expect(started.status).toBe(201);
    const checkout = {
      provider: providerCalls(started.headers),
      d1: d1RoundTrips(started.headers),
    };
    expect(checkout.provider).toBe(2);

    await payCheckout(sessionOf(started.body.checkout_url));
    const completed = (await stripeDeliveries(salon.ws.id)).find(
      (d) => d.type === "checkout.session.completed",
    );
    if (!completed) throw new Error("no completed event");
    const delivered = await fetchTimed(completed);
    const webhook = { provider: delivered.provider, d1: delivered.d1 };
    expect(webhook.provider).toBe(1);
    const { booking_uuid: bookingId } = await bookedFrom(api, held.uuid);
    if (!bookingId) throw new Error("not booked");

    // The cancel's own settlement is stopped before its claim, so this one is measured alone.
    const hits = failpoints.hits("payments.settle.before_claim");
    failpoints.arm("payments.settle.before_claim", (id) => id === bookingId);
    const cancel = await salon.ws.api(`/bookings/${bookingId}/status/cancel`, {
      method: "PUT",
      body: { cancel_reason: "didnt_come", charge_fee: true },
    });
    expect(cancel.status).toBe(200);
    await until(async () => failpoints.hits("payments.settle.before_claim") > hits);
    const before = (await stripeRequests(salon.ws.id)).length;
    const counting = countingEnv();
    expect(await settleCancelledBooking(counting.env, salon.ws.id, bookingId)).toMatchObject({
      settled: true,
    });
    const fee = {
      provider: (await stripeRequests(salon.ws.id)).length - before,
      d1: counting.trips(),
      cancel_d1: d1RoundTrips(cancel.headers),
      cancel_provider: providerCalls(cancel.headers),
    };
    expect(fee.provider).toBe(1);
    expect(fee.cancel_provider).toBe(0);
    console.log(JSON.stringify({ checkout, webhook, fee }));
    expect(checkout.d1).toBeLessThanOrEqual(5);
    expect(webhook.d1).toBeLessThanOrEqual(10);
    expect(fee.d1).toBeLessThanOrEqual(4);
  });
});

async function fetchTimed(delivery: { payload: string; signature: string }) {
  const { exports } = await import("cloudflare:workers");
  const res = await exports.default.fetch(
    new Request("http://api.test/api/payments/stripe/webhook", {
      method: "POST",
      headers: { "content-type": "application/json", "stripe-signature": delivery.signature },
      body: delivery.payload,
    }),
  );
  expect(res.status).toBe(200);
  await res.text();
  return { provider: providerCalls(res.headers), d1: d1RoundTrips(res.headers) };
}
