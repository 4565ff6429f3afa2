import { beforeAll, describe, expect, it } from "vitest";
import { type Client, PUBLIC, send } from "../helpers/http";
import {
  addresses,
  bookFor,
  createMessagingSalon,
  fromAddress,
  listedMessages,
  tokenIn,
} from "../helpers/messages";
import { at, type Salon } from "../helpers/salon";

/**
 * Anyone holding the widget's publishable key can type any phone number. A
 * booking made that way is told at the address ITS OWN request gave, and
 * keeps that address for every later message of it; it never reaches the
 * customer's stored e-mail, and never makes the salon write to an address a
 * stranger chose for anyone else's booking. Staff bookings (secret key)
 * follow the stored customer.
 */

let salon: Salon;
let pk: Client;
beforeAll(async () => {
  // Both channels on, so every row's `to` is checked on each.
  ({ salon, pk } = await createMessagingSalon(2));
});

let week = 0;
/** A Monday of its own per call (from 2031-09-01), so tests never share calendar time. */
const nextMonday = () => {
  week += 1;
  return new Date(Date.UTC(2031, 8, 1) + week * 7 * 86_400_000).toISOString().slice(0, 10);
};

let phones = 0;
/** A phone number of its own per call (E.164, as stored). */
const newPhone = () => {
  phones += 1;
  return `+49151${String(50_000_000 + phones)}`;
};

const newAddress = addresses("198.51.100.");
/** The publishable key from an address of its own (a visitor of the widget). */
const stranger = () => fromAddress(pk, newAddress());

interface Message {
  kind: string;
  channel: string;
  to: string;
  status: string;
  body: string;
  booking_uuid: string;
}

const messagesOf = (bookingId: string) => listedMessages<Message>(salon.ws.api, bookingId);

/** Every message row of a booking as [kind, channel, to]. */
const addressed = async (bookingId: string) =>
  (await messagesOf(bookingId)).map((m) => [m.kind, m.channel, m.to]);

const bookWith = async (
  api: Client,
  start: string,
  who: { phone: string; firstName: string; email?: string },
  staffer = 0,
) => {
  const res = await bookFor(
    salon,
    api,
    start,
    {
      customer_phone: who.phone,
      customer_first_name: who.firstName,
      ...(who.email ? { customer_email: who.email } : {}),
    },
    staffer,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { uuid: string; customer_uuid: string };
};

const ok = async (res: Promise<{ status: number; body: unknown }>) => {
  const done = await res;
  expect(done.status, JSON.stringify(done.body)).toBe(200);
};

describe("a publishable booking of a known phone", () => {
  it("is told at its own request's address; the victim's stored e-mail and bookings stay theirs", async () => {
    const date = nextMonday();
    const phone = newPhone();
    const victim = { phone, firstName: "Victoria", email: "victoria@example.com" };
    const mine = await bookWith(salon.ws.api, at("09:00", date), victim);

    const visitor = stranger();
    const theirs = await bookWith(visitor, at("11:00", date), {
      phone,
      firstName: "Mallory",
      email: "mallory@example.net",
    });
    expect(theirs.customer_uuid).toBe(mine.customer_uuid);
    expect(await addressed(theirs.uuid)).toEqual([
      ["booking-confirmation", "email", "mallory@example.net"],
      ["booking-confirmation", "sms", phone],
      ["booking-reminder", "email", "mallory@example.net"],
    ]);
    // Written to the name the request gave: the victim's first name is not told to a stranger.
    for (const m of await messagesOf(theirs.uuid)) expect(m.body).not.toContain("Victoria");
    expect((await messagesOf(theirs.uuid))[0]?.body).toContain("Hello Mallory");

    // The stored customer is the victim's still.
    const stored = await salon.ws.api(`/customers/${mine.customer_uuid}`);
    expect(stored.status, JSON.stringify(stored.body)).toBe(200);
    expect(stored.body.email).toBe("victoria@example.com");
    expect(stored.body.first_name).toBe("Victoria");

    // The victim's next staff booking (no e-mail given: the stored one), its change and cancel.
    const next = await bookWith(salon.ws.api, at("13:00", date), { phone, firstName: "Victoria" });
    await ok(
      salon.ws.api(`/bookings/${next.uuid}/reschedule`, {
        method: "PUT",
        body: { reserved_on: at("14:00", date), is_send_notification_on_reschedule: true },
      }),
    );
    await ok(
      salon.ws.api(`/bookings/${next.uuid}/staffer`, {
        method: "PUT",
        body: { staffer_uuid: salon.staffers[1]?.uuid },
      }),
    );
    await ok(salon.ws.api(`/bookings/${next.uuid}/status/cancel`, { method: "PUT", body: {} }));
    await ok(salon.ws.api(`/bookings/${mine.uuid}/status/cancel`, { method: "PUT", body: {} }));
    for (const id of [mine.uuid, next.uuid]) {
      for (const m of await messagesOf(id)) {
        expect(m.to, JSON.stringify(m)).toBe(m.channel === "email" ? victim.email : phone);
      }
    }
    expect(await addressed(next.uuid)).toEqual([
      ["booking-confirmation", "email", victim.email],
      ["booking-confirmation", "sms", phone],
      ["booking-reminder", "email", victim.email],
      ["booking-rescheduled", "email", victim.email],
      ["booking-rescheduled", "sms", phone],
      ["booking-canceled", "email", victim.email],
      ["booking-canceled", "sms", phone],
    ]);
  });

  it("keeps its own address for every later message: reschedule, staffer change, manage link, cancel", async () => {
    const date = nextMonday();
    const phone = newPhone();
    await bookWith(salon.ws.api, at("09:00", date), {
      phone,
      firstName: "Victoria",
      email: "victoria2@example.com",
    });
    const visitor = stranger();
    const theirs = await bookWith(visitor, at("10:00", date), {
      phone,
      firstName: "Mallory",
      email: "mallory2@example.net",
    });
    await ok(
      visitor(`/bookings/${theirs.uuid}/reschedule`, {
        method: "PUT",
        body: { reserved_on: at("11:00", date) },
      }),
    );
    // Staff hand it to another staffer: the reminder is re-written, still to the booking's address.
    await ok(
      salon.ws.api(`/bookings/${theirs.uuid}/staffer`, {
        method: "PUT",
        body: { staffer_uuid: salon.staffers[1]?.uuid },
      }),
    );
    // Staff move it and tell the customer: the booking's customer is the one its request named.
    await ok(
      salon.ws.api(`/bookings/${theirs.uuid}/reschedule`, {
        method: "PUT",
        body: { reserved_on: at("12:00", date), is_send_notification_on_reschedule: true },
      }),
    );
    // A move revokes the links sent before it: the last announcement's link is the one that opens.
    const announced = (await messagesOf(theirs.uuid)).filter(
      (m) => m.kind === "booking-rescheduled" && m.channel === "email",
    );
    const token = tokenIn(announced.at(-1)?.body ?? "");
    const moved = await send(`${PUBLIC}/manage/${token}/reschedule`, {
      method: "POST",
      body: { reserved_on: at("13:00", date) },
      headers: { "cf-connecting-ip": "198.51.100.200" },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    await ok(visitor(`/bookings/${theirs.uuid}/status/cancel`, { method: "PUT", body: {} }));

    const list = await messagesOf(theirs.uuid);
    // Scheduled, or already sent by the log provider: none skipped, the reminder canceled.
    const fate = (status: string) => (status === "sent" ? "scheduled" : status);
    expect(list.map((m) => [m.kind, m.channel, m.to, fate(m.status)])).toEqual([
      ["booking-confirmation", "email", "mallory2@example.net", "scheduled"],
      ["booking-confirmation", "sms", phone, "scheduled"],
      ["booking-reminder", "email", "mallory2@example.net", "canceled"],
      ["booking-rescheduled", "email", "mallory2@example.net", "scheduled"],
      ["booking-rescheduled", "sms", phone, "scheduled"],
      ["booking-rescheduled", "email", "mallory2@example.net", "scheduled"],
      ["booking-rescheduled", "sms", phone, "scheduled"],
      ["booking-rescheduled", "email", "mallory2@example.net", "scheduled"],
      ["booking-rescheduled", "sms", phone, "scheduled"],
      ["booking-canceled", "email", "mallory2@example.net", "scheduled"],
      ["booking-canceled", "sms", phone, "scheduled"],
    ]);
    for (const m of list) expect(m.body).not.toContain("Victoria");
  });

  it("with no e-mail in its request sends no e-mail at all (not to the stored one)", async () => {
    const date = nextMonday();
    const phone = newPhone();
    await bookWith(salon.ws.api, at("09:00", date), {
      phone,
      firstName: "Victoria",
      email: "victoria3@example.com",
    });
    const visitor = stranger();
    const theirs = await bookWith(visitor, at("10:00", date), { phone, firstName: "Mallory" });
    await ok(
      visitor(`/bookings/${theirs.uuid}/reschedule`, {
        method: "PUT",
        body: { reserved_on: at("11:00", date) },
      }),
    );
    await ok(visitor(`/bookings/${theirs.uuid}/status/cancel`, { method: "PUT", body: {} }));
    expect(await addressed(theirs.uuid)).toEqual([
      ["booking-confirmation", "sms", phone],
      ["booking-rescheduled", "sms", phone],
      ["booking-canceled", "sms", phone],
    ]);
  });

  it("a cart: one confirmation to its own address, its reminders too", async () => {
    const date = nextMonday();
    const phone = newPhone();
    await bookWith(salon.ws.api, at("09:00", date), {
      phone,
      firstName: "Victoria",
      email: "victoria4@example.com",
    });
    const res = await stranger()("/bookings/cart", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        items: [
          {
            datetime_start: at("10:00", date),
            services: [{ service_uuid: salon.cut.uuid, staffer_uuid: salon.staffers[0]?.uuid }],
          },
          {
            datetime_start: at("10:00", date),
            services: [{ service_uuid: salon.cut.uuid, staffer_uuid: salon.staffers[1]?.uuid }],
          },
        ],
        customer_phone: phone,
        customer_first_name: "Mallory",
        customer_email: "mallory4@example.net",
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const [first, second] = res.body.bookings as { uuid: string }[];
    expect(await addressed(first?.uuid ?? "")).toEqual([
      ["booking-confirmation", "email", "mallory4@example.net"],
      ["booking-confirmation", "sms", phone],
      ["booking-reminder", "email", "mallory4@example.net"],
    ]);
    expect(await addressed(second?.uuid ?? "")).toEqual([
      ["booking-reminder", "email", "mallory4@example.net"],
    ]);
  });

  it("a phone first named through the widget: the owner's own widget booking is told at theirs", async () => {
    // What remains (docs/decisions.md): the first widget booking of a phone names its customer,
    // so staff bookings of that customer follow the address it gave until staff give another.
    const date = nextMonday();
    const phone = newPhone();
    const first = await bookWith(stranger(), at("09:00", date), {
      phone,
      firstName: "Mallory",
      email: "mallory5@example.net",
    });
    const owner = await bookWith(stranger(), at("10:00", date), {
      phone,
      firstName: "Victoria",
      email: "victoria5@example.com",
    });
    expect(owner.customer_uuid).toBe(first.customer_uuid);
    expect(await addressed(owner.uuid)).toEqual([
      ["booking-confirmation", "email", "victoria5@example.com"],
      ["booking-confirmation", "sms", phone],
      ["booking-reminder", "email", "victoria5@example.com"],
    ]);
    // Staff who take the owner's e-mail put the customer right for staff bookings from then on.
    const staffs = await bookWith(salon.ws.api, at("11:00", date), {
      phone,
      firstName: "Victoria",
      email: "victoria5@example.com",
    });
    expect((await addressed(staffs.uuid)).filter(([, c]) => c === "email")).toEqual([
      ["booking-confirmation", "email", "victoria5@example.com"],
      ["booking-reminder", "email", "victoria5@example.com"],
    ]);
    expect((await addressed(first.uuid)).filter(([, c]) => c === "email")).toEqual([
      ["booking-confirmation", "email", "mallory5@example.net"],
      ["booking-reminder", "email", "mallory5@example.net"],
    ]);
  });
});
