import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import {
  bookedFrom,
  days,
  expectLedgersAgree,
  paidService,
  reserve,
  startCheckout,
  widget,
} from "../../helpers/checkout-flow";
import { sessionOf } from "../../helpers/payments";
import { createSalon, type Salon } from "../../helpers/salon";
import { payCheckout, stripeDeliveries, stripeRequests } from "../../helpers/stripe";
import { reconcilePayments } from "../../../src/payments/reconcile";

/**
 * Checkouts whose provider event never arrived: the cron's reconcile asks the
 * provider about every open checkout past its expiry and acts as the event
 * would have: a paid one becomes its booking, one still open is expired at
 * the provider and its hold ends.
 */

let salon: Salon;
let service: string;
const nextDay = days("2031-02-03");
const later = () => Date.now() + 40 * 60_000;

beforeAll(async () => {
  salon = await createSalon(1);
  service = await paidService(salon, { mode: "deposit", deposit: { amount: 1500 } });
});

describe("reconciling checkouts no event closed", () => {
  it("a paid session whose event was lost becomes its booking, once", async () => {
    const api = await widget(salon);
    const held = await reserve(api, salon, nextDay(), [["10:00", service]]);
    const opened = await startCheckout(api, held.uuid);
    expect((await payCheckout(sessionOf(opened.body.checkout_url))).status).toBe("complete");
    // The provider's events are lost on their way.
    await stripeDeliveries(salon.ws.id);
    expect((await bookedFrom(api, held.uuid)).status).toBe("open");

    // Not overdue yet: nothing asked.
    const before = (await stripeRequests(salon.ws.id)).length;
    expect((await reconcilePayments(env)).checkouts).toBe(0);
    expect((await stripeRequests(salon.ws.id)).length).toBe(before);

    expect((await reconcilePayments(env, { now: later() })).checkouts).toBe(1);
    const checkout = await bookedFrom(api, held.uuid);
    expect(checkout.status).toBe("complete");
    expect(checkout.booking_uuid).not.toBeNull();
    expect((await reconcilePayments(env, { now: later() })).checkouts).toBe(0);
    await expectLedgersAgree(salon.ws.id);
  });

  it("a session still open past its hold is expired at the provider and the hold ends", async () => {
    const api = await widget(salon);
    const date = nextDay();
    const held = await reserve(api, salon, date, [["11:00", service]]);
    const opened = await startCheckout(api, held.uuid);
    expect(opened.status).toBe(201);
    expect((await reconcilePayments(env, { now: later() })).checkouts).toBe(1);
    expect((await bookedFrom(api, held.uuid)).status).toBe("expired");
    // The customer can no longer pay on the page; the time is free for others.
    const paid = await payCheckout(sessionOf(opened.body.checkout_url));
    expect(paid.status).not.toBe("complete");
    const again = await reserve(await widget(salon), salon, date, [["11:00", service]]);
    expect(again.uuid).not.toBe(held.uuid);
  });
});
