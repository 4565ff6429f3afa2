import { beforeAll, describe, expect, it } from "vitest";
import { deliverEvents, sessionOf } from "../../helpers/payments";
import { createSalon, customer, type Salon } from "../../helpers/salon";
import {
  expireCheckout,
  payCheckout,
  stripeFault,
  stripeLedger,
  stripeRequests,
} from "../../helpers/stripe";
import {
  bookedFrom,
  checkoutRow,
  days,
  expectCleanRequests,
  expectLedgersAgree,
  linesOf,
  paidService,
  payAndDeliver,
  reserve,
  startCheckout,
  widget,
} from "../../helpers/checkout-flow";
import { everyShard } from "../../helpers/every-shard";

/**
 * What a publishable key (anyone on the internet) can and cannot do with a
 * checkout: set its amount, open pages without end, hold more than its share
 * of time, reach another salon's reservation, pay for time staff took.
 */

let salon: Salon;
let deposit: string;
const nextDay = days("2035-01-01");

beforeAll(async () => {
  salon = await createSalon(1);
  deposit = await paidService(salon, {
    mode: "deposit",
    deposit: { percent: 50 },
    no_show_fee: { amount: 2000 },
  });
});

/** POSTs about one reservation that the provider received. */
const providerPosts = async (reservation: string) =>
  (await stripeRequests(salon.ws.id)).filter(
    (r) =>
      r.method === "POST" &&
      (r.params.metadata as Record<string, string> | undefined)?.reservation_uuid === reservation,
  );

describe("a stranger's checkout", () => {
  it("the amount is the server's: amount, currency, mode and line_items in the body are dropped, not used", async () => {
    const api = await widget(salon);
    const held = await reserve(api, salon, nextDay(), [["10:00", deposit]]);
    expect(held.payment?.amount_due_now).toBe(4000);
    const started = await startCheckout(api, held.uuid, {
      amount: 1,
      amount_due_now: 1,
      currency: "usd",
      mode: "setup",
      line_items: [{ quantity: 1, price_data: { currency: "usd", unit_amount: 1 } }],
    });
    // The body schema strips keys it does not know (it does not refuse them): 201.
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const [session] = (await providerPosts(held.uuid)).filter(
      (r) => r.path === "/v1/checkout/sessions",
    );
    expect(session?.params.mode).toBe("payment");
    const lines = linesOf(session?.params ?? {});
    expect(lines).toHaveLength(1);
    expect(lines[0]?.price_data).toMatchObject({ currency: "eur", unit_amount: "4000" });
    const before = await stripeLedger(salon.ws.id);
    await payAndDeliver(salon.ws.id, started.body.checkout_url);
    const after = await stripeLedger(salon.ws.id);
    expect(after.charged - before.charged).toBe(4000);
  });

  it("calling checkout again while the page is open: the same page, no provider request, the newest customer fields", async () => {
    const api = await widget(salon);
    const held = await reserve(api, salon, nextDay(), [["10:00", deposit]]);
    const first = await startCheckout(api, held.uuid, { customer_phone: "+49 151 70000001" });
    expect(first.status).toBe(201);
    const asked = (await providerPosts(held.uuid)).length;
    expect(asked).toBe(2);
    const again = await startCheckout(api, held.uuid, {
      customer_first_name: "Berta",
      customer_phone: "+49 151 70000001",
    });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect((await providerPosts(held.uuid)).length).toBe(asked);
    await payAndDeliver(salon.ws.id, first.body.checkout_url);
    const booked = await bookedFrom(api, held.uuid);
    const booking = await salon.ws.api(`/bookings/${booked.booking_uuid}`);
    const named = await everyShard
      .prepare("select first_name from customers where id = ?")
      .bind(booking.body.customer_uuid)
      .first<{ first_name: string }>();
    expect(named?.first_name).toBe("Berta");
  });

  it("the reservation keeps counting against the visitor's 3 live holds while its page is open", async () => {
    const api = await widget(salon);
    const date = nextDay();
    const held = await reserve(api, salon, date, [["09:00", deposit]]);
    const started = await startCheckout(api, held.uuid);
    expect(started.status).toBe(201);
    await reserve(api, salon, date, [["11:00", salon.cut.uuid]]);
    await reserve(api, salon, date, [["13:00", salon.cut.uuid]]);
    const fourth = {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        items: [
          { datetime_start: `${date}T15:00:00Z`, services: [{ service_uuid: salon.cut.uuid }] },
        ],
      },
    };
    const refused = await api("/reservations", fourth);
    expect(refused.status, JSON.stringify(refused.body)).toBe(429);
    expect(refused.body.code).toBe("too_many_holds");
    // The page's end ends its hold: a place for one more.
    await expireCheckout(sessionOf(started.body.checkout_url));
    await deliverEvents(salon.ws.id);
    expect((await api("/reservations", fourth)).status).toBe(201);
  });

  it("customer fields are checked now, as POST /bookings checks them: 422, nothing asked of the provider", async () => {
    const api = await widget(salon);
    const held = await reserve(api, salon, nextDay(), [["10:00", deposit]]);
    const bad = await startCheckout(api, held.uuid, { customer_phone: "12" });
    expect(bad.status, JSON.stringify(bad.body)).toBe(422);
    expect(JSON.stringify(bad.body)).toContain("customer_phone");
    const badUrl = await startCheckout(api, held.uuid, { success_url: "javascript:alert(1)" });
    expect(badUrl.status).toBe(422);
    expect(await providerPosts(held.uuid)).toEqual([]);
    expect(await checkoutRow(held.uuid)).toBeNull();
  });

  it("another workspace's reservation: 404, for its publishable and its secret key, nothing asked of the provider", async () => {
    const api = await widget(salon);
    const held = await reserve(api, salon, nextDay(), [["10:00", deposit]]);
    const other = await createSalon(1);
    const stranger = await widget(other);
    const asPublishable = await startCheckout(stranger, held.uuid);
    expect(asPublishable.status).toBe(404);
    const asSecret = await startCheckout(other.ws.api, held.uuid);
    expect(asSecret.status).toBe(404);
    expect(await providerPosts(held.uuid)).toEqual([]);
    expect(await checkoutRow(held.uuid)).toBeNull();
  });

  it("a reservation that expired, or was released: 409 reservation_expired", async () => {
    const api = await widget(salon);
    const held = await reserve(api, salon, nextDay(), [["10:00", deposit]]);
    await everyShard
      .prepare("update reservations set expires_at = ? where id = ?")
      .bind(Date.now() - 1000, held.uuid)
      .run();
    const expired = await startCheckout(api, held.uuid);
    expect(expired.status).toBe(409);
    expect(expired.body.code).toBe("reservation_expired");

    const released = await reserve(api, salon, nextDay(), [["10:00", deposit]]);
    expect((await api(`/reservations/${released.uuid}`, { method: "DELETE" })).status).toBe(204);
    const gone = await startCheckout(api, released.uuid);
    expect(gone.status).toBe(409);
    expect(gone.body.code).toBe("reservation_expired");
    expect(await providerPosts(held.uuid)).toEqual([]);
    expect(await providerPosts(released.uuid)).toEqual([]);
  });

  it("at most 5 attempts per reservation: the sixth asks the provider nothing and is 409", async () => {
    const api = await widget(salon);
    const held = await reserve(api, salon, nextDay(), [["10:00", deposit]]);
    // Each attempt's customer call fails, and so does the client's own retry of it.
    await stripeFault({
      method: "POST",
      path: "/v1/customers",
      when: "before",
      times: 10,
      workspace: salon.ws.id,
    });
    for (let i = 1; i <= 5; i++) {
      const failed = await startCheckout(api, held.uuid);
      expect(failed.status, `attempt ${i}: ${JSON.stringify(failed.body)}`).toBe(503);
    }
    const keys = new Set((await providerPosts(held.uuid)).map((r) => r.idempotency_key));
    expect([...keys].sort()).toEqual([1, 2, 3, 4, 5].map((n) => `customer:${held.uuid}:${n}`));
    const asked = (await providerPosts(held.uuid)).length;
    const sixth = await startCheckout(api, held.uuid);
    expect(sixth.status).toBe(409);
    expect(sixth.body.code).toBe("reservation_expired");
    expect((await providerPosts(held.uuid)).length).toBe(asked);
    expect((await checkoutRow(held.uuid))?.attempt).toBe(5);
  });
});

describe("the hold lost during checkout", () => {
  it("staff book over the hold, the customer pays anyway: no booking, refunded in full at once", async () => {
    const api = await widget(salon);
    const date = nextDay();
    const held = await reserve(api, salon, date, [["10:00", deposit]]);
    const started = await startCheckout(api, held.uuid);
    expect(started.status).toBe(201);
    const staff = await salon.ws.api("/bookings", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        service_uuid: salon.cut.uuid,
        staffer_uuid: salon.staffers[0]?.uuid,
        reserved_on: `${date}T10:00:00Z`,
        ...customer("+49 151 80000009"),
      },
    });
    expect(staff.status, JSON.stringify(staff.body)).toBe(201);

    const before = await stripeLedger(salon.ws.id);
    const session = sessionOf(started.body.checkout_url);
    expect((await payCheckout(session)).status).toBe("complete");
    const { answers } = await deliverEvents(salon.ws.id);
    expect(answers.find((a) => a.type === "checkout.session.completed")?.status).toBe(200);

    expect(await bookedFrom(api, held.uuid)).toEqual({ status: "complete", booking_uuid: null });
    const after = await stripeLedger(salon.ws.id);
    expect(after.charged - before.charged).toBe(4000);
    expect(after.refunded - before.refunded).toBe(4000);
    const refund = after.entries.find(
      (e) => e.kind === "refund" && !before.entries.some((b) => b.id === e.id),
    );
    expect(refund).toMatchObject({ amount: 4000, source: "api" });
    const bookings = await everyShard
      .prepare("select count(*) as n from booking_payments where reservation_id = ?")
      .bind(held.uuid)
      .first<{ n: number }>();
    expect(bookings?.n).toBe(0);
    // The refund went out under the key of what it is for.
    const refunds = (await stripeRequests(salon.ws.id)).filter(
      (r) => r.path === "/v1/refunds" && r.status === 200,
    );
    expect(refunds.map((r) => r.idempotency_key)).toContain(`refund:${session}:hold-lost`);
  });

  it("no request broke the provider's API; its money equals our ledger's", async () => {
    await expectCleanRequests(salon.ws.id);
    await expectLedgersAgree(salon.ws.id);
  });
});
