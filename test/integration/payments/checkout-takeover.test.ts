import { beforeAll, describe, expect, it } from "vitest";
import { deliverEvents, sessionOf } from "../../helpers/payments";
import { createSalon, type Salon } from "../../helpers/salon";
import { payCheckout, stripeFault, stripeLedger } from "../../helpers/stripe";
import {
  bookedFrom,
  checkoutRow,
  days,
  expectLedgersAgree,
  paidService,
  reserve,
  startCheckout,
  widget,
} from "../../helpers/checkout-flow";
import { everyShard } from "../../helpers/every-shard";

/**
 * Two checkout requests of one reservation at once, the earlier one back from
 * the provider first: its page must not be the one paid for nothing. It is
 * refused (409, its session expired at the provider), the later attempt's page
 * is the checkout's; and a paid session no checkout names is refunded in full.
 */

let salon: Salon;
let deposit: string;
const nextDay = days("2035-01-01");

beforeAll(async () => {
  salon = await createSalon(1);
  deposit = await paidService(salon, { mode: "deposit", deposit: { amount: 2500 } });
});

describe("a checkout taken over while at the provider", () => {
  it("the earlier request back first is refused and its page expired; the later one's page books", async () => {
    const api = await widget(salon);
    const held = await reserve(api, salon, nextDay(), [["10:00", deposit]]);
    // Both wait at the provider; the first one started is the first one back.
    await stripeFault({
      method: "POST",
      path: "/v1/checkout/sessions",
      when: "delay",
      delayMs: 1200,
      times: 2,
      workspace: salon.ws.id,
    });
    const earlier = startCheckout(api, held.uuid);
    await new Promise((r) => setTimeout(r, 300));
    const later = startCheckout(api, held.uuid);
    const [first, second] = await Promise.all([earlier, later]);
    expect(first.status, JSON.stringify(first.body)).toBe(409);
    expect(first.body.code).toBe("conflict");
    expect(second.status, JSON.stringify(second.body)).toBe(201);
    expect(await checkoutRow(held.uuid)).toMatchObject({
      status: "open",
      attempt: 2,
      checkout_url: second.body.checkout_url,
    });
    expect((await payCheckout(sessionOf(second.body.checkout_url))).status).toBe("complete");
    await deliverEvents(salon.ws.id);
    expect((await bookedFrom(api, held.uuid)).booking_uuid).not.toBeNull();
    await expectLedgersAgree(salon.ws.id);
  });

  it("a paid session that no checkout names is refunded in full", async () => {
    const api = await widget(salon);
    const held = await reserve(api, salon, nextDay(), [["11:00", deposit]]);
    const started = await startCheckout(api, held.uuid);
    expect(started.status).toBe(201);
    // As if another attempt had taken the checkout over after this page was shown.
    await everyShard
      .prepare("update payment_checkouts set session_id = ? where reservation_id = ?")
      .bind(`cs_test_taken_over_${held.uuid}`, held.uuid)
      .run();
    expect((await payCheckout(sessionOf(started.body.checkout_url))).status).toBe("complete");
    const { answers } = await deliverEvents(salon.ws.id);
    expect(answers.find((a) => a.type === "checkout.session.completed")).toMatchObject({
      status: 200,
      body: { handled: "handled" },
    });
    const provider = await stripeLedger(salon.ws.id);
    const refund = provider.entries.find((e) => e.kind === "refund");
    expect(refund?.amount).toBe(2500);
    expect(
      provider.entries.filter(
        (e) => e.kind === "charge_succeeded" && e.payment_intent === refund?.payment_intent,
      ),
    ).toHaveLength(1);
    expect((await bookedFrom(api, held.uuid)).booking_uuid).toBeNull();
  });
});
