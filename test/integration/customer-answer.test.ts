import { beforeAll, describe, expect, it } from "vitest";
import { messageVisitor } from "../../src/messages/message-visitor";
import { failpoints } from "../../src/platform/failpoints";
import { pruneExpired } from "../../src/db/prune";
import { calendarBatch } from "../helpers/faults";
import { PUBLIC_MESSAGES } from "../../src/platform/rules/public-visit";
import { admin, type Client, d1RoundTrips, PUBLIC, send } from "../helpers/http";
import {
  bookingMessageRows,
  createMessagingSalon,
  fromAddress,
  tokenIn,
} from "../helpers/messages";
import { at, customer, type Salon } from "../helpers/salon";
import {
  days,
  paidService,
  payAndDeliver,
  reserve,
  startCheckout,
  widget,
} from "../helpers/checkout-flow";
import {
  cancel,
  fullDay,
  joined,
  local,
  offered,
  offerMessages,
  offerTokenIn,
  plusDays,
  WAIT_DAY,
} from "../helpers/waitlist";
import { everyShard } from "../helpers/every-shard";

/**
 * What a customer is answered for the booking they just made (a publishable
 * key, a cart, a waitlist offer's link, a paid checkout): each booking's
 * manage link, the one its messages carry, and whom its confirmation went to,
 * as the write's own batch decided it. Staff's answers and later reads carry
 * neither; an offer booked through its link shows that booking when reopened.
 */

let salon: Salon;
let pk: Client;
beforeAll(async () => {
  // E-mail and SMS on: a confirmation is written on both channels.
  ({ salon, pk } = await createMessagingSalon(2));
});

const EMAIL = { channel: "email", to: "anna@example.com" };
const SMS = { channel: "sms", to: "+4915123456789" };

/** A weekday of its own per test (the salon's Mondays), so no two bookings meet. */
let week = 0;
const nextMonday = () => {
  week += 1;
  return new Date(Date.UTC(2030, 2, 4) + week * 7 * 86_400_000).toISOString().slice(0, 10);
};

const cut = (day: string, hhmm: string, staffer = 0) => ({
  location_uuid: salon.location.uuid,
  service_uuid: salon.cut.uuid,
  staffer_uuid: salon.staffers[staffer]?.uuid,
  reserved_on: at(hhmm, day),
  ...customer(),
});

interface Answered {
  uuid: string;
  links: { type: string; link: string }[];
  confirmation_sent_to?: { channel: string; to: string }[];
}

const manageLink = (b: Answered) => b.links.find((l) => l.type === "manage")?.link;

/** What an offer's page shows once booked through its link: that booking, with its link. */
const bookedAs = (b: Answered & { start_time: string; end_time: string }) => ({
  status: "booked",
  booking: {
    uuid: b.uuid,
    start_time: b.start_time,
    end_time: b.end_time,
    manage_url: manageLink(b),
  },
});

/** The token of a manage page URL (`…/widget/manage?token=…`). */
const tokenOfLink = (link: string | undefined) => {
  expect(link).toMatch(/^https?:\/\/[^/]+\/widget\/manage\?token=[A-Za-z0-9_-]+$/);
  return new URL(link ?? "").searchParams.get("token") ?? "";
};

/** GET /manage/{token}: the booking it opens (200 checked). */
const opened = async (token: string) => {
  const res = await send(`${PUBLIC}/manage/${token}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.booking.uuid as string;
};

/** The booking's confirmation rows as written: channel, to, status. */
const confirmations = async (bookingIds: string[]) =>
  (
    await bookingMessageRows<{ kind: string; channel: string; to: string; status: string }>(
      salon.ws.id,
      bookingIds,
      'kind, channel, "to", status',
    )
  ).filter((r) => r.kind === "booking-confirmation");

const setSms = async (enabled: boolean) => {
  const res = await admin(`/workspaces/${salon.ws.id}/notification-settings`, {
    method: "PUT",
    body: {
      email: { enabled: true, from_name: "Salon", from_email: "hello@salon.example" },
      sms: { enabled },
      reminders: [{ channel: "email", minutes_before: 1440 }],
      templates: {},
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};

describe("a publishable key's booking answer", () => {
  it("carries the manage link its messages carry, opening that booking, and both confirmations; 2 D1 round trips as before", async () => {
    const res = await fromAddress(pk, "203.0.113.10")("/bookings", {
      method: "POST",
      body: cut(nextMonday(), "09:00"),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    // The SELECT rides in the write's own batch: a read, the claim, the write.
    expect(d1RoundTrips(res.headers)).toBe(2);
    const booking = res.body as Answered;
    expect(booking.links.filter((l) => l.type === "manage")).toHaveLength(1);
    const token = tokenOfLink(manageLink(booking));
    expect(await opened(token)).toBe(booking.uuid);
    // The very link the confirmation's text carries.
    const email = await everyShard
      .prepare(
        "select body from messages where booking_id = ? and kind = 'booking-confirmation' and channel = 'email'",
      )
      .bind(booking.uuid)
      .first<{ body: string }>();
    expect(tokenIn(email?.body ?? "")).toBe(token);
    expect(booking.confirmation_sent_to).toEqual([EMAIL, SMS]);
    // The booking-created event is the booking as every read shows it: neither is in it.
    const event = await everyShard
      .prepare(
        "select payload from events where workspace_id = ? and type = 'booking-created' and payload like ?",
      )
      .bind(salon.ws.id, `%${booking.uuid}%`)
      .first<{ payload: string }>();
    const payload = JSON.parse(event?.payload ?? "{}") as Answered;
    expect(payload.uuid).toBe(booking.uuid);
    expect(manageLink(payload)).toBeUndefined();
    expect(payload).not.toHaveProperty("confirmation_sent_to");
    expect((await confirmations([booking.uuid])).map((r) => [r.channel, r.to, r.status])).toEqual([
      ["email", EMAIL.to, "scheduled"],
      ["sms", SMS.to, "scheduled"],
    ]);
  });

  it("names only the channels the salon's settings enable (SMS off: the e-mail alone)", async () => {
    await setSms(false);
    try {
      const res = await pk("/bookings", { method: "POST", body: cut(nextMonday(), "10:00") });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.confirmation_sent_to).toEqual([EMAIL]);
      expect((await confirmations([res.body.uuid])).map((r) => r.channel)).toEqual(["email"]);
    } finally {
      await setSms(true);
    }
  });

  it("is [] when the visitor's message quota made the confirmations `skipped` in the write's batch", async () => {
    const ip = "203.0.113.20";
    const visitor = await messageVisitor(ip);
    // The visitor's day is used up: as many counted messages as the bound allows.
    const now = Date.now();
    await everyShard.batch(
      Array.from({ length: PUBLIC_MESSAGES.perVisitor }, () =>
        everyShard
          .prepare(
            `insert into messages (id, workspace_id, kind, channel, "to", locale, body, status,
             scheduled_for, attempts, created_at, visitor)
           values (?, ?, 'booking-rescheduled', 'email', 'someone@example.org', 'en', 'x', 'sent', ?, 1, ?, ?)`,
          )
          .bind(crypto.randomUUID(), salon.ws.id, now, now, visitor),
      ),
    );
    const res = await fromAddress(pk, ip)("/bookings", {
      method: "POST",
      body: cut(nextMonday(), "11:00"),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.confirmation_sent_to).toEqual([]);
    // The rows agree: both written, both skipped for the visitor's bound.
    expect((await confirmations([res.body.uuid])).map((r) => [r.channel, r.status])).toEqual([
      ["email", "skipped"],
      ["sms", "skipped"],
    ]);
    // The manage link is the booking's whatever the messages' fate.
    expect(await opened(tokenOfLink(manageLink(res.body)))).toBe(res.body.uuid);
    // Another address is not bounded by it.
    const other = await fromAddress(pk, "203.0.113.21")("/bookings", {
      method: "POST",
      body: cut(nextMonday(), "11:00"),
    });
    expect(other.body.confirmation_sent_to).toEqual([EMAIL, SMS]);
  });

  it("names the same channels whether the phone's stored customer turned SMS off or the phone is new", async () => {
    const day = nextMonday();
    const known = "+4915122223333";
    // The phone is a customer's who left SMS (staff booked them, then turned it off).
    const theirs = await salon.ws.api("/bookings", {
      method: "POST",
      body: { ...cut(day, "09:00"), ...customer(known) },
    });
    expect(theirs.status, JSON.stringify(theirs.body)).toBe(201);
    const optOut = await salon.ws.api(`/customers/${theirs.body.customer_uuid}`, {
      method: "PATCH",
      body: { notifications: { sms: false } },
    });
    expect(optOut.status, JSON.stringify(optOut.body)).toBe(200);
    const book = fromAddress(pk, "203.0.113.30");
    const onKnown = await book("/bookings", {
      method: "POST",
      body: { ...cut(day, "11:00"), ...customer(known) },
    });
    const fresh = "+4915122224444";
    const onFresh = await book("/bookings", {
      method: "POST",
      body: { ...cut(day, "13:00"), ...customer(fresh) },
    });
    expect(onKnown.status, JSON.stringify(onKnown.body)).toBe(201);
    expect(onFresh.status, JSON.stringify(onFresh.body)).toBe(201);
    // The rows differ: the known phone's SMS was skipped for its customer's opt-out.
    expect((await confirmations([onKnown.body.uuid])).map((r) => [r.channel, r.status])).toEqual([
      ["email", "scheduled"],
      ["sms", "skipped"],
    ]);
    // The answers do not: the stranger learns nothing of the stored customer.
    expect(onKnown.body.confirmation_sent_to).toEqual([EMAIL, { channel: "sms", to: known }]);
    expect(onFresh.body.confirmation_sent_to).toEqual([EMAIL, { channel: "sms", to: fresh }]);
  });

  it("a batch that commits unheard (its answer lost): the confirmations are read once more, the answer the same", async () => {
    failpoints.arm("d1.batch.committed", calendarBatch);
    try {
      const res = await fromAddress(pk, "203.0.113.40")("/bookings", {
        method: "POST",
        body: cut(nextMonday(), "13:00"),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      // The write's batch (unheard), then the one read of the confirmations it wrote.
      expect(d1RoundTrips(res.headers)).toBe(3);
      expect(res.body.confirmation_sent_to).toEqual([EMAIL, SMS]);
      expect(await opened(tokenOfLink(manageLink(res.body)))).toBe(res.body.uuid);
    } finally {
      failpoints.disarmAll();
    }
  });

  it("a cart: each booking its own manage link, the one confirmation named on each", async () => {
    const day = nextMonday();
    const res = await pk("/bookings/cart", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        items: [0, 1].map((n) => ({
          datetime_start: at(`1${n}:00`, day),
          services: [{ service_uuid: salon.cut.uuid, staffer_uuid: salon.staffers[n]?.uuid }],
        })),
        ...customer(),
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(d1RoundTrips(res.headers)).toBe(2);
    const bookings = res.body.bookings as Answered[];
    expect(bookings).toHaveLength(2);
    const tokens = bookings.map((b) => tokenOfLink(manageLink(b)));
    expect(new Set(tokens).size).toBe(2);
    for (const [i, b] of bookings.entries()) {
      expect(await opened(tokens[i] ?? "")).toBe(b.uuid);
      expect(b.confirmation_sent_to).toEqual([EMAIL, SMS]);
    }
    // One confirmation per channel for the cart, under its first booking.
    expect(await confirmations(bookings.map((b) => b.uuid))).toHaveLength(2);
  });

  it("a secret key's answer carries neither, nor does any later read", async () => {
    const staff = await salon.ws.api("/bookings", {
      method: "POST",
      body: cut(nextMonday(), "12:00"),
    });
    expect(staff.status, JSON.stringify(staff.body)).toBe(201);
    expect(manageLink(staff.body)).toBeUndefined();
    expect(staff.body).not.toHaveProperty("confirmation_sent_to");
    // Its confirmations were written all the same.
    expect(await confirmations([staff.body.uuid])).toHaveLength(2);

    const mine = await fromAddress(pk, "203.0.113.30")("/bookings", {
      method: "POST",
      body: cut(nextMonday(), "12:00"),
    });
    expect(mine.status).toBe(201);
    for (const api of [pk, salon.ws.api]) {
      const read = await api(`/bookings/${mine.body.uuid}`);
      expect(read.status).toBe(200);
      expect(manageLink(read.body)).toBeUndefined();
      expect(read.body).not.toHaveProperty("confirmation_sent_to");
    }
  });
});

describe("a paid reservation's checkout", () => {
  it("names the booking's manage link and its confirmations once the webhook booked it (null and [] before)", async () => {
    const service = await paidService(salon, {
      mode: "deposit",
      deposit: { percent: 25 },
    });
    const api = await widget(salon);
    const held = await reserve(api, salon, days("2031-03-03")(), [["10:00", service]]);
    const started = await startCheckout(api, held.uuid);
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const before = await api(`/reservations/${held.uuid}`);
    expect(before.body.checkout).toEqual({
      status: "open",
      booking_uuid: null,
      manage_url: null,
      confirmation_sent_to: [],
    });

    await payAndDeliver(salon.ws.id, started.body.checkout_url);
    const after = await api(`/reservations/${held.uuid}`);
    expect(after.status, JSON.stringify(after.body)).toBe(200);
    // Still one round trip: the booking and its messages are read in the reservation's statement.
    expect(d1RoundTrips(after.headers)).toBe(1);
    const { checkout } = after.body;
    expect(checkout.status).toBe("complete");
    expect(checkout.booking_uuid).toEqual(expect.any(String));
    const token = new URL(checkout.manage_url).searchParams.get("token") ?? "";
    expect(await opened(token)).toBe(checkout.booking_uuid);
    expect(checkout.confirmation_sent_to).toEqual([EMAIL, SMS]);
    expect(
      (await confirmations([checkout.booking_uuid])).filter((r) => r.status !== "skipped"),
    ).toHaveLength(2);

    // Handed by staff to another customer since: the payer's reservation names the booking
    // but no longer its manage link nor where its confirmation went.
    const someoneElse = await salon.ws.api("/bookings", {
      method: "POST",
      body: { ...cut(nextMonday(), "15:00"), customer_phone: "+49 151 77777777" },
    });
    expect(someoneElse.status, JSON.stringify(someoneElse.body)).toBe(201);
    await everyShard
      .prepare("update bookings set customer_id = ? where id = ?")
      .bind(someoneElse.body.customer_uuid, checkout.booking_uuid)
      .run();
    const handed = await api(`/reservations/${held.uuid}`);
    expect(handed.body.checkout).toEqual({
      status: "complete",
      booking_uuid: checkout.booking_uuid,
      manage_url: null,
      confirmation_sent_to: [],
    });
  });
});

describe("a waitlist offer", () => {
  /** An entry (the widget's) offered the freed 09:00 on `day`: its id and its link's token. */
  const offerOn = async (day: string, phone: string) => {
    // Both staffers' days full; one visit then freed.
    await fullDay(salon, day, 0);
    const booking = await fullDay(salon, day, 1);
    const id = await joined(salon, pk, {
      customer_phone: phone,
      customer_email: "anna@example.com",
      from: day,
      to: day,
    });
    await cancel(salon, booking);
    await offered(salon, id);
    return { id, token: offerTokenIn((await offerMessages(id))[0]?.body ?? "") };
  };
  const page = (token: string) => send(`${PUBLIC}/waitlist-offers/${token}`);

  it("open: status open, booking null; booked through its link: reopened, it shows that booking", async () => {
    const { token } = await offerOn(WAIT_DAY, "+49 151 23456789");
    const open = await page(token);
    expect(open.status, JSON.stringify(open.body)).toBe(200);
    expect(open.body).toMatchObject({ status: "open", booking: null });

    const booked = await send(`${PUBLIC}/waitlist-offers/${token}/book`, { method: "POST" });
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    const token2 = tokenOfLink(manageLink(booked.body));
    expect(await opened(token2)).toBe(booked.body.uuid);
    expect(booked.body.confirmation_sent_to).toEqual([EMAIL, SMS]);

    const reopened = await page(token);
    expect(reopened.status, JSON.stringify(reopened.body)).toBe(200);
    expect(reopened.body).toMatchObject({
      entry_uuid: open.body.entry_uuid,
      start: open.body.start,
      services: open.body.services,
      ...bookedAs(booked.body),
    });
    expect(Object.keys(reopened.body.booking).sort()).toEqual([
      "end_time",
      "manage_url",
      "start_time",
      "uuid",
    ]);
    // Booking again is still refused: the link books once.
    const again = await send(`${PUBLIC}/waitlist-offers/${token}/book`, { method: "POST" });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("reservation_expired");

    // The booking moved by staff (to a free Wednesday): the page shows it where it is now.
    const moved = await salon.ws.api(`/bookings/${booked.body.uuid}/reschedule`, {
      method: "PUT",
      body: { reserved_on: local(plusDays(WAIT_DAY, 2), "11:00") },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect((await page(token)).body.booking.start_time).toBe(moved.body.start_time);

    // Handed to another customer since: the link shows nothing of it (the ended offer's 409).
    const someoneElse = await salon.ws.api("/bookings", {
      method: "POST",
      body: { ...cut(nextMonday(), "13:00"), customer_phone: "+49 151 99999999" },
    });
    expect(someoneElse.status).toBe(201);
    await everyShard
      .prepare("update bookings set customer_id = ? where id = ?")
      .bind(someoneElse.body.customer_uuid, booked.body.uuid)
      .run();
    const handed = await page(token);
    expect(handed.status).toBe(409);
    expect(handed.body.code).toBe("reservation_expired");
    expect(JSON.stringify(handed.body)).not.toContain(booked.body.uuid);
  });

  it("booked through its link, reopened after its reservation was pruned: still 200 booked", async () => {
    const { id, token } = await offerOn(plusDays(WAIT_DAY, 7), "+49 151 23456781");
    const open = await page(token);
    expect(open.status, JSON.stringify(open.body)).toBe(200);
    const booked = await send(`${PUBLIC}/waitlist-offers/${token}/book`, { method: "POST" });
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    // The cron's prune two days on: the used reservation (expired over a day before) is deleted.
    await pruneExpired(everyShard, Date.now() + 2 * 86_400_000);
    const left = await everyShard
      .prepare(
        "select count(*) as n from reservations where id = (select offer_reservation_id from waitlist_entries where id = ?)",
      )
      .bind(id)
      .first<{ n: number }>();
    expect(left?.n).toBe(0);
    const reopened = await page(token);
    expect(reopened.status, JSON.stringify(reopened.body)).toBe(200);
    expect(reopened.body).toMatchObject({
      entry_uuid: open.body.entry_uuid,
      start: open.body.start,
      salon: open.body.salon,
      ...bookedAs(booked.body),
    });
    // The services are the booking's own, the same as the offer held.
    expect(
      reopened.body.services.map((s: Record<string, string>) => [s.service_uuid, s.staffer_uuid]),
    ).toEqual(
      open.body.services.map((s: Record<string, string>) => [s.service_uuid, s.staffer_uuid]),
    );
    // Booking again is still refused, and a booking handed to someone else still shows nothing.
    const again = await send(`${PUBLIC}/waitlist-offers/${token}/book`, { method: "POST" });
    expect(again.status).toBe(409);
    const someoneElse = await salon.ws.api("/bookings", {
      method: "POST",
      body: { ...cut(nextMonday(), "15:00"), customer_phone: "+49 151 99999998" },
    });
    expect(someoneElse.status).toBe(201);
    await everyShard
      .prepare("update bookings set customer_id = ? where id = ?")
      .bind(someoneElse.body.customer_uuid, booked.body.uuid)
      .run();
    const handed = await page(token);
    expect(handed.status).toBe(409);
    expect(handed.body.code).toBe("reservation_expired");
  });

  it("an offer that lapsed keeps today's 409; a token no offer has, 401", async () => {
    const { id, token } = await offerOn(plusDays(WAIT_DAY, 1), "+49 151 23456780");
    // Past its expiry, before the desk has noticed (it would offer the time anew).
    await everyShard
      .prepare(
        "update reservations set expires_at = ? where id = (select offer_reservation_id from waitlist_entries where id = ?)",
      )
      .bind(Date.now() - 1_000, id)
      .run();
    const lapsed = await page(token);
    expect(lapsed.status).toBe(409);
    expect(lapsed.body.code).toBe("reservation_expired");
    expect((await page("A".repeat(43))).status).toBe(401);
  });
});
