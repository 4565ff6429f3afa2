import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { failpoints } from "../../../src/platform/failpoints";
import { postEvent, sessionOf } from "../../helpers/payments";
import { createSalon, customer, type Salon } from "../../helpers/salon";
import {
  payCheckout,
  type StripeDelivery,
  stripeDeliveries,
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
  paidService,
  present,
  reserve,
  startCheckout,
  widget,
} from "../../helpers/checkout-flow";
import type { Client } from "../../helpers/http";
import { until } from "../../helpers/messages";
import { everyShard } from "../../helpers/every-shard";

/**
 * Faults on every step of a checkout and of the webhook that books it: the
 * provider failing before it acts, acting but its answer lost, the Worker
 * dying after the provider's answer, the same event twice at once. Whatever
 * failed, a retry (the customer's, or the provider's redelivery) ends with
 * one usable session, one booking, and the provider's money equal to ours.
 */

let salon: Salon;
let deposit: string;
const nextDay = days("2034-01-02");

beforeAll(async () => {
  salon = await createSalon(1);
  deposit = await paidService(salon, {
    mode: "deposit",
    deposit: { amount: 2500 },
    late_cancel: { window_minutes: 60, fee: { amount: 1000 } },
  });
});

afterEach(() => failpoints.disarmAll());

/** A fault on this file's workspace only (other files share the provider). */
const fault = (f: Omit<Parameters<typeof stripeFault>[0], "workspace">) =>
  stripeFault({ ...f, workspace: salon.ws.id });

async function held() {
  const api = await widget(salon);
  const date = nextDay();
  const reservation = await reserve(api, salon, date, [["10:00", deposit]]);
  return { api, date, uuid: reservation.uuid };
}

/** The provider's POSTs about one reservation (its customer's and its sessions'). */
const requestsFor = async (reservation: string) =>
  (await stripeRequests(salon.ws.id)).filter(
    (r) =>
      r.method === "POST" &&
      (r.params.metadata as Record<string, string> | undefined)?.reservation_uuid === reservation,
  );

/** Another visitor's try at the same time: refused while the reservation holds it. */
async function slotTaken(date: string) {
  const other = await widget(salon);
  const res = await other("/reservations", {
    method: "POST",
    body: {
      location_uuid: salon.location.uuid,
      items: [
        {
          datetime_start: `${date}T10:00:00Z`,
          services: [{ service_uuid: deposit, staffer_uuid: salon.staffers[0]?.uuid }],
        },
      ],
    },
  });
  return res.status === 409;
}

/** Pays the page and delivers the completed event; answers the booking it made. */
async function payOnce(api: Client, reservation: string, url: string) {
  expect((await payCheckout(sessionOf(url))).status).toBe("complete");
  const completed = await completedEvent();
  expect((await postEvent(completed)).status).toBe(200);
  const checkout = await bookedFrom(api, reservation);
  expect(checkout.status).toBe("complete");
  expect(checkout.booking_uuid).not.toBeNull();
  return present(checkout.booking_uuid, "a booking");
}

async function completedEvent(): Promise<StripeDelivery> {
  const deliveries = await stripeDeliveries(salon.ws.id);
  const completed = deliveries.find((d) => d.type === "checkout.session.completed");
  if (!completed) throw new Error("no checkout.session.completed waiting");
  return completed;
}

const bookingsOf = async (reservation: string) => {
  const row = await everyShard
    .prepare("select count(*) as n from booking_payments where reservation_id = ?")
    .bind(reservation)
    .first<{ n: number }>();
  return row?.n ?? 0;
};

const eventMarked = async (payload: string) => {
  const id = (JSON.parse(payload) as { id: string }).id;
  return (
    (await everyShard
      .prepare("select id from payment_provider_events where id = ?")
      .bind(id)
      .first()) !== null
  );
};

describe("a checkout whose provider call fails before the provider acts", () => {
  it.each(["/v1/customers", "/v1/checkout/sessions"])(
    "POST %s refused (and the client's own retry too): 503 payments_unavailable, the time still held, a retry succeeds",
    async (path) => {
      const { api, date, uuid } = await held();
      await fault({ method: "POST", path, when: "before", times: 2 });
      const failed = await startCheckout(api, uuid);
      expect(failed.status, JSON.stringify(failed.body)).toBe(503);
      expect(failed.body.code).toBe("payments_unavailable");
      expect((await api(`/reservations/${uuid}`)).status).toBe(200);
      expect(await slotTaken(date)).toBe(true);

      const retried = await startCheckout(api, uuid);
      expect(retried.status, JSON.stringify(retried.body)).toBe(201);
      await payOnce(api, uuid, retried.body.checkout_url);
      expect(await bookingsOf(uuid)).toBe(1);
      await expectLedgersAgree(salon.ws.id);
    },
  );
});

describe("a checkout whose provider acted but the answer was lost", () => {
  it("the session's answer lost once: the client's retry under the same key gets the stored answer, one session", async () => {
    const { api, uuid } = await held();
    await fault({ method: "POST", path: "/v1/checkout/sessions", when: "after", times: 1 });
    const started = await startCheckout(api, uuid);
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const sessions = (await requestsFor(uuid)).filter((r) => r.path === "/v1/checkout/sessions");
    expect(sessions.map((r) => [r.status, r.replayed])).toEqual([
      [500, false],
      [200, true],
    ]);
    expect(new Set(sessions.map((r) => r.idempotency_key))).toEqual(
      new Set([`checkout:${uuid}:1`]),
    );
    await payOnce(api, uuid, started.body.checkout_url);
    await expectLedgersAgree(salon.ws.id);
  });

  it("the Worker died after the provider's answer, before its write: 500; a retry answers one usable session, paid once", async () => {
    const { api, date, uuid } = await held();
    failpoints.arm("payments.checkout.after_provider");
    const died = await startCheckout(api, uuid);
    expect(died.status).toBe(500);
    expect((await checkoutRow(uuid))?.status).toBe("creating");
    expect(await slotTaken(date)).toBe(true);

    const retried = await startCheckout(api, uuid);
    expect(retried.status, JSON.stringify(retried.body)).toBe(201);
    const row = await checkoutRow(uuid);
    expect(row).toMatchObject({
      status: "open",
      attempt: 2,
      checkout_url: retried.body.checkout_url,
    });
    // A second try makes a session of its own (its key names the attempt): the first's page
    // was never shown to anyone.
    const sessions = (await requestsFor(uuid)).filter(
      (r) => r.path === "/v1/checkout/sessions" && r.status === 200,
    );
    expect(sessions.map((r) => r.idempotency_key)).toEqual([
      `checkout:${uuid}:1`,
      `checkout:${uuid}:2`,
    ]);
    const before = await stripeLedger(salon.ws.id);
    await payOnce(api, uuid, retried.body.checkout_url);
    const after = await stripeLedger(salon.ws.id);
    expect(after.payments - before.payments).toBe(1);
    expect(await bookingsOf(uuid)).toBe(1);
    await expectLedgersAgree(salon.ws.id);
  });

  it("after our write, the same POST again: the same checkout_url, no new provider request", async () => {
    const { api, uuid } = await held();
    const first = await startCheckout(api, uuid);
    expect(first.status).toBe(201);
    const asked = (await requestsFor(uuid)).length;
    const again = await startCheckout(api, uuid);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect((await requestsFor(uuid)).length).toBe(asked);
  });

  it("two requests at once, the first still waiting on the provider: the later attempt's page wins, the earlier is 409 conflict and its page expired", async () => {
    const { api, uuid } = await held();
    await fault({ method: "POST", path: "/v1/checkout/sessions", when: "delay", delayMs: 1500 });
    const slow = startCheckout(api, uuid);
    // The second arrives while the first is at the provider, and takes the attempt over.
    await new Promise((r) => setTimeout(r, 500));
    const fast = await startCheckout(api, uuid);
    const late = await slow;
    expect(fast.status, JSON.stringify(fast.body)).toBe(201);
    expect(late.status, JSON.stringify(late.body)).toBe(409);
    expect(late.body.code).toBe("conflict");
    const row = await checkoutRow(uuid);
    expect(row).toMatchObject({ status: "open", attempt: 2, checkout_url: fast.body.checkout_url });
    // The customer's retry answers the page that is open.
    const retried = await startCheckout(api, uuid);
    expect(retried.body.checkout_url).toBe(fast.body.checkout_url);
    // The page nobody may pay on is expired at the provider (after the answer).
    const expired = await until(async () => {
      const found = (await stripeRequests(salon.ws.id)).filter(
        (r) => r.path.endsWith("/expire") && r.status === 200,
      );
      return found.find((r) => !r.path.includes(sessionOf(fast.body.checkout_url))) ?? false;
    });
    expect(expired.idempotency_key).toMatch(/^expire:cs_/);
    await payOnce(api, uuid, fast.body.checkout_url);
    expect(await bookingsOf(uuid)).toBe(1);
    await expectLedgersAgree(salon.ws.id);
  });
});

describe("a webhook delivery that fails part-way", () => {
  it("the session's fetch-back fails: 500, nothing written; the event delivered again books once", async () => {
    const { api, uuid } = await held();
    const started = await startCheckout(api, uuid);
    const session = sessionOf(started.body.checkout_url);
    await payCheckout(session);
    const completed = await completedEvent();
    await fault({
      method: "GET",
      path: `/v1/checkout/sessions/${session}`,
      when: "before",
      times: 2,
    });
    const failed = await postEvent(completed);
    expect(failed.status).toBe(500);
    expect(await eventMarked(completed.payload)).toBe(false);
    expect((await bookedFrom(api, uuid)).status).toBe("open");
    const again = await postEvent(completed);
    expect(again).toMatchObject({ status: 200, body: { handled: "handled" } });
    expect(await bookingsOf(uuid)).toBe(1);
    expect((await postEvent(completed)).body.handled).toBe("duplicate");
    await expectLedgersAgree(salon.ws.id);
  });

  it("the Worker dies before the booking (payments.webhook.before_booking): 500; redelivery books once", async () => {
    const { api, uuid } = await held();
    const started = await startCheckout(api, uuid);
    await payCheckout(sessionOf(started.body.checkout_url));
    const completed = await completedEvent();
    failpoints.arm("payments.webhook.before_booking");
    expect((await postEvent(completed)).status).toBe(500);
    expect(await bookingsOf(uuid)).toBe(0);
    expect(await eventMarked(completed.payload)).toBe(false);
    expect((await postEvent(completed)).status).toBe(200);
    expect(await bookingsOf(uuid)).toBe(1);
    const checkout = await bookedFrom(api, uuid);
    expect(checkout.status).toBe("complete");
    expect(checkout.booking_uuid).not.toBeNull();
    await expectLedgersAgree(salon.ws.id);
  });

  it("two deliveries of the completed event at once, both past their read: one booking, nothing refunded", async () => {
    const { api, uuid } = await held();
    const started = await startCheckout(api, uuid);
    await payCheckout(sessionOf(started.body.checkout_url));
    const completed = await completedEvent();
    const before = await stripeLedger(salon.ws.id);
    // Both have read the open checkout and the live reservation before either claims its time.
    failpoints.meet("booking.create.reservation_read", 2);
    const reads = failpoints.hits("booking.create.reservation_read");
    const answers = await Promise.all([postEvent(completed), postEvent(completed)]);
    expect(failpoints.hits("booking.create.reservation_read") - reads).toBe(2);
    // The loser may answer 500 (the provider delivers again): then it is a duplicate.
    for (const a of answers) expect([200, 500]).toContain(a.status);
    if (answers.some((a) => a.status === 500)) {
      expect((await postEvent(completed)).status).toBe(200);
    }
    const checkout = await bookedFrom(api, uuid);
    expect(checkout.status).toBe("complete");
    expect(checkout.booking_uuid).not.toBeNull();
    expect(await bookingsOf(uuid)).toBe(1);
    const after = await stripeLedger(salon.ws.id);
    expect(after.refunded).toBe(before.refunded);
    await expectLedgersAgree(salon.ws.id);
  });
});

describe("the refund of a paid checkout whose hold was lost", () => {
  it("the refund call fails: 500, the event delivered again refunds once (the same key)", async () => {
    const { api, date, uuid } = await held();
    const started = await startCheckout(api, uuid);
    const session = sessionOf(started.body.checkout_url);
    const staff = await salon.ws.api("/bookings", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        service_uuid: salon.cut.uuid,
        staffer_uuid: salon.staffers[0]?.uuid,
        reserved_on: `${date}T10:00:00Z`,
        ...customer("+49 151 80000019"),
      },
    });
    expect(staff.status, JSON.stringify(staff.body)).toBe(201);
    await payCheckout(session);
    const completed = await completedEvent();
    const before = await stripeLedger(salon.ws.id);
    await fault({ method: "POST", path: "/v1/refunds", when: "before", times: 2 });
    expect((await postEvent(completed)).status).toBe(500);
    expect(await eventMarked(completed.payload)).toBe(false);
    expect((await stripeLedger(salon.ws.id)).refunded).toBe(before.refunded);
    expect((await postEvent(completed)).status).toBe(200);
    expect((await postEvent(completed)).body.handled).toBe("duplicate");
    const after = await stripeLedger(salon.ws.id);
    expect(after.refunded - before.refunded).toBe(2500);
    expect(after.refunds - before.refunds).toBe(1);
    const refunds = (await stripeRequests(salon.ws.id)).filter(
      (r) => r.path === "/v1/refunds" && r.idempotency_key === `refund:${session}:hold-lost`,
    );
    expect(refunds.filter((r) => r.status === 200 && !r.replayed)).toHaveLength(1);
    expect(await bookedFrom(api, uuid)).toEqual({ status: "complete", booking_uuid: null });
    expect(await bookingsOf(uuid)).toBe(0);
    await expectLedgersAgree(salon.ws.id);
  });
});

describe("after every fault", () => {
  it("the provider's charges equal our ledger's; no request broke its API", async () => {
    await expectCleanRequests(salon.ws.id);
    const { provider, ours } = await expectLedgersAgree(salon.ws.id);
    // One payment each booked checkout, and the lost hold's, refunded in full, with no row of ours.
    expect(provider.payments).toBe(ours.filter((r) => r.kind === "deposit").length + 1);
    expect(provider.refunds).toBe(1);
  });
});
