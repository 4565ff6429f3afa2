import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  bookedFrom,
  days,
  expectLedgersAgree,
  ourLedger,
  paidService,
  payAndDeliver,
  reserve,
  startCheckout,
  widget,
} from "../../helpers/checkout-flow";
import { until } from "../../helpers/messages";
import { deliverEvents } from "../../helpers/payments";
import { createSalon, type Salon } from "../../helpers/salon";
import { failpoints } from "../../../src/platform/failpoints";
import { reconcilePayments } from "../../../src/payments/reconcile";
import { everyShard } from "../../helpers/every-shard";

/**
 * `payment_intent.payment_failed`: a fee charge whose answer the Worker lost
 * stays pending; the provider's event about the failed intent (fetched back
 * before it is believed) records the row failed at once, and the reconcile's
 * later repeat of the call changes nothing.
 */

let salon: Salon;
let onFile: string;
const nextDay = days("2032-03-01");

beforeAll(async () => {
  salon = await createSalon(1);
  onFile = await paidService(salon, { mode: "card_on_file", no_show_fee: { amount: 2500 } });
});

afterEach(() => failpoints.disarmAll());

describe("a failed off-session charge reported by the provider", () => {
  it("records the pending fee failed from the event; the reconcile's repeat changes nothing", async () => {
    const api = await widget(salon);
    const held = await reserve(api, salon, nextDay(), [["10:00", onFile]]);
    const opened = await startCheckout(api, held.uuid);
    await payAndDeliver(salon.ws.id, opened.body.checkout_url, "4000000000000341");
    const { booking_uuid: bookingId } = await bookedFrom(api, held.uuid);
    if (!bookingId) throw new Error("not booked");

    // The fee call's answer is lost between the provider and our write.
    const hits = failpoints.hits("payments.call.answered");
    failpoints.arm("payments.call.answered", (key) => key === `fee:${bookingId}:no_show_fee`);
    const cancel = await salon.ws.api(`/bookings/${bookingId}/status/cancel`, {
      method: "PUT",
      body: { cancel_reason: "didnt_come", charge_fee: true },
    });
    expect(cancel.status).toBe(200);
    await until(async () => failpoints.hits("payments.call.answered") > hits);
    const fee = async () =>
      (await ourLedger(salon.ws.id)).find(
        (r) => r.booking_id === bookingId && r.kind === "no_show_fee",
      );
    expect((await fee())?.status).toBe("pending");

    const { answers } = await deliverEvents(salon.ws.id);
    expect(answers.find((a) => a.type === "payment_intent.payment_failed")).toMatchObject({
      status: 200,
      body: { handled: "handled" },
    });
    expect(await fee()).toMatchObject({ status: "failed", amount: 2500 });
    const row = await everyShard
      .prepare("select failure_reason from payments where booking_id = ? and kind = 'no_show_fee'")
      .bind(bookingId)
      .first<{ failure_reason: string }>();
    expect(row?.failure_reason).toBe("generic_decline");

    expect(await reconcilePayments(env, { staleAfterMs: 0 })).toMatchObject({ repeated: 0 });
    expect(await fee()).toMatchObject({ status: "failed" });
    await expectLedgersAgree(salon.ws.id);
  });
});
