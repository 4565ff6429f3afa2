import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { failpoints } from "../../../src/platform/failpoints";
import type { Client } from "../../helpers/http";
import { createPublishableKey } from "../../helpers/keys";
import { createSalon, customer, type Salon } from "../../helpers/salon";
import { deliverEvents, postEvent, sessionOf } from "../../helpers/payments";
import { payCheckout, stripeDeliveries, stripeLedger, stripeRequests } from "../../helpers/stripe";
import { everyShard } from "../../helpers/every-shard";

let salon: Salon;
let deposit: string;
let week = 0;
const nextDay = () => {
  week += 1;
  return new Date(Date.UTC(2030, 7, 5) + week * 7 * 86_400_000).toISOString().slice(0, 10);
};
const widget = async (): Promise<Client> => (await createPublishableKey(salon.ws)).api;

const reserve = async (api: Client, service = deposit) => {
  const res = await api("/reservations", {
    method: "POST",
    body: {
      location_uuid: salon.location.uuid,
      items: [{ datetime_start: `${nextDay()}T10:00:00Z`, services: [{ service_uuid: service }] }],
    },
  });
  expect(res.status).toBe(201);
  return res.body as { uuid: string; payment: { amount_due_now: number } | null };
};

const checkout = (api: Client, reservation: string, extra: Record<string, unknown> = {}) =>
  api(`/reservations/${reservation}/checkout`, {
    method: "POST",
    body: {
      ...customer(),
      success_url: "https://salon.example/done?session={CHECKOUT_SESSION_ID}",
      cancel_url: "https://salon.example/back",
      ...extra,
    },
  });

afterEach(() => failpoints.disarmAll());

beforeAll(async () => {
  salon = await createSalon(1);
  const created = await salon.ws.api("/services", {
    method: "POST",
    body: {
      name: "Balayage",
      duration: 60,
      price: 8000,
      payment_policy: {
        mode: "deposit",
        deposit: { percent: 25 },
        late_cancel: { window_minutes: 1440, fee: { amount: 1500 } },
        no_show_fee: { amount: 4000 },
      },
      location_uuids: [salon.location.uuid],
      staffer_uuids: salon.staffers.map((s) => s.uuid),
    },
  });
  expect(created.status).toBe(201);
  deposit = created.body.uuid;
});

describe("hosted checkout of a reservation", () => {
  it("pays the deposit on the provider's page and the provider's event makes the booking", async () => {
    const api = await widget();
    const held = await reserve(api);
    expect(held.payment?.amount_due_now).toBe(2000);
    const started = await checkout(api, held.uuid);
    expect(started.status).toBe(201);
    const session = sessionOf(started.body.checkout_url);
    const shown = await api(`/reservations/${held.uuid}`);
    expect(shown.body.checkout).toEqual({
      status: "open",
      booking_uuid: null,
      manage_url: null,
      confirmation_sent_to: [],
    });
    // Held ten minutes past the page's end, for a payment whose event comes late.
    expect(Date.parse(shown.body.expires_at)).toBe(Date.parse(started.body.expires_at) + 600_000);

    const paid = await payCheckout(session);
    expect(paid.status).toBe("complete");
    const { answers } = await deliverEvents(salon.ws.id);
    expect(answers.find((a) => a.type === "checkout.session.completed")?.status).toBe(200);

    const after = await api(`/reservations/${held.uuid}`);
    expect(after.body.checkout.status).toBe("complete");
    const bookingId = after.body.checkout.booking_uuid as string;
    expect(bookingId).toMatch(/[0-9a-f-]{36}/);
    const ledger = await everyShard
      .prepare("select kind, amount, status from payments where booking_id = ?")
      .bind(bookingId)
      .all();
    expect(ledger.results).toEqual([{ kind: "deposit", amount: 2000, status: "succeeded" }]);
    const booking = await salon.ws.api(`/bookings/${bookingId}`);
    expect(booking.body.payment).toMatchObject({
      mode: "deposit",
      status: "paid",
      paid_online: 2000,
      refunded: 0,
      policy: {
        mode: "deposit",
        deposit: { amount: 2000 },
        late_cancel: { window_minutes: 1440, fee: { amount: 1500 } },
        no_show_fee: { amount: 4000 },
      },
    });
    expect(Date.parse(booking.body.payment.cancel_fee_from)).toBe(
      Date.parse(booking.body.start_time) - 1440 * 60_000,
    );
    const listed = await salon.ws.api(`/bookings/${bookingId}/payments`);
    expect(listed.status).toBe(200);
    expect(listed.body.data).toMatchObject([
      { kind: "deposit", amount: 2000, status: "succeeded" },
    ]);
    expect((await api(`/bookings/${bookingId}/payments`)).status).toBe(403);
    const provider = await stripeLedger(salon.ws.id);
    expect(provider).toBeTruthy();
    const requests = await stripeRequests(salon.ws.id);
    expect(requests.filter((r) => r.violation !== null)).toEqual([]);
  });

  it("a replayed event is handled once; a bad signature is 400 and writes nothing", async () => {
    const api = await widget();
    const held = await reserve(api);
    const started = await checkout(api, held.uuid);
    await payCheckout(sessionOf(started.body.checkout_url));
    const deliveries = await stripeDeliveries(salon.ws.id);
    const completed = deliveries.find((d) => d.type === "checkout.session.completed");
    if (!completed) throw new Error("no completed event");
    const forged = await postEvent({ ...completed, signature: "t=1,v1=00" });
    expect(forged.status).toBe(400);
    expect((await api(`/reservations/${held.uuid}`)).body.checkout.status).toBe("open");
    // Both deliveries read the open checkout and the live reservation before either writes.
    failpoints.meet("booking.create.reservation_read", 2);
    const reads = failpoints.hits("booking.create.reservation_read");
    const [first, second] = await Promise.all([postEvent(completed), postEvent(completed)]);
    expect(failpoints.hits("booking.create.reservation_read") - reads).toBe(2);
    expect([first.status, second.status]).toEqual([200, 200]);
    const again = await postEvent(completed);
    expect(again.body.handled).toBe("duplicate");
    const rows = await everyShard
      .prepare(
        "select count(*) as n from bookings where id in (select booking_id from payment_checkouts where reservation_id = ?)",
      )
      .bind(held.uuid)
      .first<{ n: number }>();
    expect(rows?.n).toBe(1);
  });

  it("a publishable POST /bookings of such a reservation is 402", async () => {
    const api = await widget();
    const held = await reserve(api);
    const res = await api("/bookings/cart", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        reservation_uuid: held.uuid,
        items: [],
        ...customer(),
      },
    });
    expect([402, 422]).toContain(res.status);
  });
});
