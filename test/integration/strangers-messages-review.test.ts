import { beforeAll, describe, expect, it } from "vitest";
import { admin, type Client, PUBLIC, type Received, send } from "../helpers/http";
import { createPublishableKey } from "../helpers/keys";
import {
  addresses,
  announcements,
  bookFor,
  bookingMessageRows,
  createMessagingSalon,
  fromAddress,
  tokenIn,
  told,
  weekdays,
  writtenToGo,
} from "../helpers/messages";
import { at, createSalon, type Salon } from "../helpers/salon";
import { customerIdFor } from "../../src/platform/rules/customer-id";
import { everyShard } from "../helpers/every-shard";

/**
 * A review of issue 25's fixes from the side of a stranger who holds only a
 * salon's publishable key (it is in the salon's web page), and of someone who
 * got hold of one customer's manage link: where a booking's messages go, the
 * per-visitor booking cap and message bound, the per-booking limit on a
 * customer's changes, single-line names, and links bound to the booking's
 * start. A test marked `it.fails` asserts the right behaviour for a defect
 * still open (its comment says which); the others pin what holds.
 */

const MESSAGES_CAP = 20;
/** A booking's customer-caused moves told on each channel in a day. */
const BOOKING_CAP = 5;

let salon: Salon;
let pk: Client;
beforeAll(async () => {
  // Both channels on: every announcement is an e-mail and an SMS, as a pumping target would get.
  ({ salon, pk } = await createMessagingSalon(3));
});

/** A weekday of its own per call (from Monday 2032-03-01), so tests never share calendar time. */
const nextDay = weekdays(Date.UTC(2032, 2, 1));

/** A client address of its own (IPv4 documentation range). */
const newAddress = addresses("203.0.113.");

let phones = 0;
const newPhone = () => `+49151${String(60_000_000 + ++phones)}`;

/** The publishable key from one client address. */
const visitorAt = (ip: string, api: Client = pk) => fromAddress(api, ip);

/** A manage route, from a client address. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const viaLink = (path: string, ip: string, body?: unknown): Promise<Received<any>> =>
  send(`${PUBLIC}/manage/${path}`, {
    ...(body === undefined ? {} : { method: "POST", body }),
    headers: { "cf-connecting-ip": ip },
  });

interface Who {
  phone: string;
  firstName: string;
  email?: string;
  language?: string;
}

const bookWith = async (api: Client, start: string, who: Who, staffer = 0) => {
  const res = await bookFor(
    salon,
    api,
    start,
    {
      customer_phone: who.phone,
      customer_first_name: who.firstName,
      ...(who.email ? { customer_email: who.email } : {}),
      ...(who.language ? { customer_browser_language: who.language } : {}),
    },
    staffer,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { uuid: string; customer_uuid: string; start_time: string };
};

/** Holds `start` with staffer 1 (a reservation, asserted 201), then books it for `customer`. */
const bookReserved = async (api: Client, start: string, customer: Record<string, string>) => {
  const services = [{ service_uuid: salon.cut.uuid, staffer_uuid: salon.staffers[1]?.uuid }];
  const held = await api("/reservations", {
    method: "POST",
    body: { location_uuid: salon.location.uuid, items: [{ datetime_start: start, services }] },
  });
  expect(held.status, JSON.stringify(held.body)).toBe(201);
  return api("/bookings", {
    method: "POST",
    body: {
      location_uuid: salon.location.uuid,
      service_uuid: salon.cut.uuid,
      staffer_uuid: salon.staffers[1]?.uuid,
      reserved_on: start,
      reservation_uuid: held.body.uuid,
      ...customer,
    },
  });
};

interface Row {
  kind: string;
  channel: string;
  to: string;
  locale: string;
  status: string;
  error: string | null;
  subject: string | null;
  body: string;
}

/** A booking's message rows, oldest first. */
const rowsOf = (bookingId: string) =>
  bookingMessageRows<Row>(
    salon.ws.id,
    [bookingId],
    `kind, channel, "to", locale, status, error, subject, body`,
  );

/** The manage token of a booking's newest e-mail of `kind`. */
const linkOf = async (bookingId: string, kind = "booking-confirmation") => {
  const row = (await rowsOf(bookingId))
    .filter((r) => r.kind === kind && r.channel === "email")
    .at(-1);
  if (!row) throw new Error(`no ${kind} e-mail for ${bookingId}`);
  return tokenIn(row.body);
};

describe("where a stranger's booking of someone else's phone is told", () => {
  it("holds: a booking from a reservation is told at its own request's address and counts in the cap", async () => {
    const date = nextDay();
    const phone = newPhone();
    await bookWith(salon.ws.api, at("08:00", date), {
      phone,
      firstName: "Victoria",
      email: "victoria@example.com",
    });
    const me = visitorAt(newAddress());
    const made: string[] = [];
    for (let i = 0; i < 6; i++) {
      const booked = await bookReserved(me, at(`${String(9 + i).padStart(2, "0")}:00`, date), {
        customer_phone: phone,
        customer_first_name: "Mallory",
        customer_email: "mallory@example.net",
      });
      if (i < 6) expect(booked.status, JSON.stringify(booked.body)).toBe(201);
      made.push(booked.body.uuid);
    }
    const rows = await rowsOf(made[0] ?? "");
    expect(rows.map((r) => [r.kind, r.channel, r.to])).toEqual([
      ["booking-confirmation", "email", "mallory@example.net"],
      ["booking-confirmation", "sms", phone],
      ["booking-reminder", "email", "mallory@example.net"],
    ]);
    for (const r of rows) expect(r.body).not.toContain("Victoria");
    // The 7th booking of the day through reservations is refused like any other.
    const seventh = await bookReserved(me, at("15:00", date), {
      customer_phone: phone,
      customer_first_name: "Mallory",
    });
    expect(seventh.status, JSON.stringify(seventh.body)).toBe(429);
    expect(seventh.body.code).toBe("too_many_bookings");
  });

  // Was a DEFECT (low, information leak), fixed: a publishable booking that names no browser language is
  // written in the STORED customer's language, and GET /manage answers that language too, so a
  // stranger who types a phone learns that it belongs to a customer of the salon and which
  // language they speak. The widget always sends customer_browser_language; only a script
  // leaves it out. Right: the request's language, else the workspace's (never the stored one).
  it("a stranger's booking without a browser language is not written in the victim's language", async () => {
    const date = nextDay();
    const phone = newPhone();
    // The victim booked through the widget in German: their customer record speaks German.
    await bookWith(visitorAt(newAddress()), at("08:00", date), {
      phone,
      firstName: "Victoria",
      email: "victoria@example.com",
      language: "de-DE",
    });
    const theirs = await bookWith(visitorAt(newAddress()), at("10:00", date), {
      phone,
      firstName: "Mallory",
      email: "mallory@example.net",
    });
    const view = await viaLink(await linkOf(theirs.uuid), newAddress());
    expect(view.status, JSON.stringify(view.body)).toBe(200);
    const rows = await rowsOf(theirs.uuid);
    expect({ messages: rows.map((r) => r.locale), view: view.body.locale }).toEqual({
      messages: rows.map(() => "en"),
      view: "en",
    });
  });

  // DEFECT (low; a trade-off for the lead): the phone's customer's e-mail opt-out is applied to
  // the e-mail a stranger's booking gave (an address that is not the customer's), so whether the
  // stranger's own confirmation arrives tells them that the phone is a customer's who opted out.
  // Right (one reading): a publishable booking's e-mail goes to its own address alike, whoever the
  // phone's customer is; the SMS (the customer's phone) keeps the customer's opt-out.
  it.fails(
    "a stranger's own e-mail is told alike whether or not the phone's customer opted out",
    async () => {
      const date = nextDay();
      const known = newPhone();
      const victim = await bookWith(salon.ws.api, at("08:00", date), {
        phone: known,
        firstName: "Quiet",
        email: "quiet@example.com",
      });
      const optOut = await salon.ws.api(`/customers/${victim.customer_uuid}`, {
        method: "PATCH",
        body: { notifications: { email: false } },
      });
      expect(optOut.status, JSON.stringify(optOut.body)).toBe(200);
      const me = visitorAt(newAddress());
      const who = (phone: string) => ({ phone, firstName: "Probe", email: "probe@example.net" });
      const onKnown = await bookWith(me, at("10:00", date), who(known));
      const onUnknown = await bookWith(me, at("12:00", date), who(newPhone()));
      const emailFates = async (id: string) =>
        (await rowsOf(id)).filter((r) => r.channel === "email").map((r) => told(r));
      expect(await emailFates(onKnown.uuid)).toEqual(await emailFates(onUnknown.uuid));
    },
  );

  // DEFECT (medium, known and written down as "what remains"): the first widget booking of a
  // phone names its customer. A stranger books a phone that is not yet a customer with the
  // stranger's e-mail; when the real owner later books by telephone and staff give no e-mail,
  // the salon tells the STORED address, the stranger's: the owner's name, time and a manage
  // link that cancels or moves the owner's booking. Right: an e-mail typed into the widget is
  // not where staff bookings are told until staff confirmed it (e.g. a flag on the customer
  // for an e-mail that came from a publishable request; a migration).
  it.fails(
    "a stranger who named a phone first is not told the owner's later staff booking",
    async () => {
      const date = nextDay();
      const phone = newPhone();
      await bookWith(visitorAt(newAddress()), at("08:00", date), {
        phone,
        firstName: "Mallory",
        email: "mallory-first@example.net",
      });
      // The owner calls the salon; the front desk books them by name and phone only.
      const owners = await bookWith(
        salon.ws.api,
        at("12:00", date),
        { phone, firstName: "Olivia" },
        2,
      );
      const emails = (await rowsOf(owners.uuid)).filter((r) => r.channel === "email");
      expect(emails.map((r) => r.to)).not.toContain("mallory-first@example.net");
    },
  );
});

describe("the per-visitor message bound", () => {
  it("holds: addresses of one IPv6 /64 are one visitor (a new address per request changes nothing)", async () => {
    const date = nextDay();
    let host = 0;
    const rotating = () => `2001:db8:77:1:${(++host).toString(16)}:0:0:1`;
    // Three bookings, so that no booking's own daily bound (5 moves) is what skips a message.
    const made: string[] = [];
    for (let b = 0; b < 3; b++) {
      const booked = await bookWith(
        visitorAt(rotating()),
        at(`${String(8 + b).padStart(2, "0")}:00`, date),
        { phone: newPhone(), firstName: "Sixty", email: `sixty-four-${b}@example.net` },
        b,
      );
      made.push(booked.uuid);
    }
    // 3 × 2 confirmations + 7 moves × 2 = 20; the 8th move is past the bound.
    for (let i = 0; i < 8; i++) {
      const b = i % 3;
      const moved = await visitorAt(rotating())(`/bookings/${made[b]}/reschedule`, {
        method: "PUT",
        body: {
          reserved_on: at(
            `${String(8 + b).padStart(2, "0")}:${Math.floor(i / 3) % 2 === 0 ? "30" : "00"}`,
            date,
          ),
        },
      });
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    }
    const rows = (await Promise.all(made.map(rowsOf))).flatMap(announcements);
    expect(rows.filter(told)).toHaveLength(MESSAGES_CAP);
    expect(rows.filter((r) => !told(r)).map((r) => `${r.status}:${r.error}`)).toEqual([
      "skipped:visitor_quota",
      "skipped:visitor_quota",
    ]);
  });

  it("holds: a second publishable key from the same address books more, but is told no more", async () => {
    const second = await createPublishableKey(salon.ws);
    const ip = newAddress();
    const keys = [visitorAt(ip), visitorAt(ip, second.api)];
    const date = nextDay();
    const made: string[] = [];
    // 6 bookings per key and address: 12 bookings, 24 confirmations; the bound is 20.
    for (let i = 0; i < 12; i++) {
      const api = keys[i % 2] ?? pk;
      const start = at(`${String(8 + Math.floor(i / 3)).padStart(2, "0")}:00`, date);
      const res = await bookWith(
        api,
        start,
        { phone: newPhone(), firstName: "K", email: `k${i}@example.net` },
        i % 3,
      );
      made.push(res.uuid);
    }
    const rows = (await Promise.all(made.map(rowsOf))).flatMap(announcements);
    expect(rows).toHaveLength(24);
    expect(rows.filter(told)).toHaveLength(MESSAGES_CAP);
  });

  it("holds: a cart that would pass the booking cap is 429 and writes nothing (no booking, no message)", async () => {
    const me = visitorAt(newAddress());
    const date = nextDay();
    for (let i = 0; i < 3; i++)
      await bookWith(me, at(`${String(8 + i).padStart(2, "0")}:00`, date), {
        phone: newPhone(),
        firstName: "C",
        email: `c${i}@example.net`,
      });
    const phone = newPhone();
    const cart = await me("/bookings/cart", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        items: [0, 1, 2, 3].map((i) => ({
          datetime_start: at(`${String(12 + i).padStart(2, "0")}:00`, date),
          services: [{ service_uuid: salon.cut.uuid, staffer_uuid: salon.staffers[0]?.uuid }],
        })),
        customer_phone: phone,
        customer_first_name: "Cart",
        customer_email: "cart@example.net",
      },
    });
    expect(cart.status, JSON.stringify(cart.body)).toBe(429);
    expect(cart.body.code).toBe("too_many_bookings");
    const written = await everyShard
      .prepare(
        `select (select count(*) from messages where workspace_id = ?1 and "to" in (?2, 'cart@example.net')) as messages,
              (select count(*) from customers where workspace_id = ?1 and phone = ?2) as customers`,
      )
      .bind(salon.ws.id, phone)
      .first<{ messages: number; customers: number }>();
    expect(written).toEqual({ messages: 0, customers: 0 });
    // Three more fit: a cart of three is booked, told once per channel.
    const three = await me("/bookings/cart", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        items: [0, 1, 2].map((i) => ({
          datetime_start: at(`${String(12 + i).padStart(2, "0")}:00`, date),
          services: [{ service_uuid: salon.cut.uuid, staffer_uuid: salon.staffers[0]?.uuid }],
        })),
        customer_phone: phone,
        customer_first_name: "Cart",
        customer_email: "cart@example.net",
      },
    });
    expect(three.status, JSON.stringify(three.body)).toBe(201);
    const first = (three.body.bookings as { uuid: string }[])[0]?.uuid ?? "";
    expect(announcements(await rowsOf(first)).map((r) => [r.kind, r.channel])).toEqual([
      ["booking-confirmation", "email"],
      ["booking-confirmation", "sms"],
    ]);
  });

  // Was a DEFECT (medium), fixed: the bound was per client address only, and the per-booking
  // limit is per minute, so a stranger with many addresses (cheap IPv4 proxies) moved ONE
  // booking, whose phone and e-mail are the victim's, from a new address each time: every
  // address stayed under 20 a day and the victim got 2 messages a move, up to 5 moves a minute
  // (14,400 a day); 10 moves from 10 addresses told the victim 22 times. Now a booking's
  // customer-caused moves tell its customer at most 5 times a day on each channel, whoever
  // moves it (`booking_quota`).
  it("one booking moved from many addresses does not tell its customer past the bound", async () => {
    const date = nextDay();
    const victim = { phone: newPhone(), firstName: "Victim", email: "victim@example.org" };
    const made = await bookWith(visitorAt(newAddress()), at("08:00", date), victim);
    for (let i = 0; i < 10; i++) {
      const moved = await visitorAt(newAddress())(`/bookings/${made.uuid}/reschedule`, {
        method: "PUT",
        body: { reserved_on: at(i % 2 === 0 ? "10:00" : "08:00", date) },
      });
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    }
    const rows = announcements(await rowsOf(made.uuid));
    expect(rows).toHaveLength(22);
    // The confirmation (e-mail and SMS) and 5 moves on each channel; the other 5 moves skipped.
    expect(rows.filter(told)).toHaveLength(2 + 2 * BOOKING_CAP);
    expect(rows.filter((r) => !told(r)).map((r) => `${r.status}:${r.error}`)).toEqual(
      Array(10).fill("skipped:booking_quota"),
    );
  });
});

describe("a manage link opens its customer's booking wherever it moved", () => {
  // A customer's move no longer revokes the links sent before it (the booking's current state
  // decides, not the link's age: manage-link-revocation.test.ts); what held for revoked links
  // here (writes with them cost the booking nothing) has no subject any more. The per-booking
  // write limit is counted for every holder of the link alike.

  // Was a DEFECT (low), fixed: a "move" to the booking's current start went through as a real change (claims,
  // a new version, a booking-rescheduled webhook) and told the customer "your booking was moved"
  // to the time it already had, without revoking the link: a link's holder (or anyone with the
  // uuid and the page's key) could repeat it to send messages that change nothing. Right: a
  // customer's move to where the booking already is changes nothing and tells no one.
  it("a customer's move to the booking's current start changes nothing and tells no one", async () => {
    const date = nextDay();
    const made = await bookWith(salon.ws.api, at("08:00", date), {
      phone: newPhone(),
      firstName: "Still",
      email: "still@example.org",
    });
    const link = await linkOf(made.uuid);
    const before = await rowsOf(made.uuid);
    const viaManage = await viaLink(`${link}/reschedule`, newAddress(), {
      reserved_on: at("08:00", date),
    });
    expect(viaManage.status, JSON.stringify(viaManage.body)).toBe(200);
    expect(viaManage.body.start_time).toBe(at("08:00", date));
    const viaKey = await visitorAt(newAddress())(`/bookings/${made.uuid}/reschedule`, {
      method: "PUT",
      body: { reserved_on: at("08:00", date) },
    });
    expect(viaKey.status, JSON.stringify(viaKey.body)).toBe(200);
    // The confirmation due now may have gone out meanwhile (its delivery runs on its own):
    // scheduled and sent count as the same row; nothing else may differ, and none is added.
    const settled = (rows: Awaited<ReturnType<typeof rowsOf>>) =>
      rows.map((r) => ({ ...r, status: writtenToGo(r.status) }));
    expect(settled(await rowsOf(made.uuid))).toEqual(settled(before));
    // No booking-rescheduled event either (only the creation's).
    const events = await everyShard
      .prepare("select type from events where workspace_id = ? and payload like ?")
      .bind(salon.ws.id, `%${made.uuid}%`)
      .all<{ type: string }>();
    expect(events.results.map((e) => e.type)).not.toContain("booking-rescheduled");
    // The link still opens the booking (it did not move).
    expect((await viaLink(link, newAddress())).status).toBe(200);
  });

  it("holds: two moves through one link at once: each moves it in turn or is refused, never a 500", async () => {
    const date = nextDay();
    const made = await bookWith(salon.ws.api, at("08:00", date), {
      phone: newPhone(),
      firstName: "Twice",
      email: "twice@example.org",
    });
    const link = await linkOf(made.uuid);
    const answers = await Promise.all(
      ["10:00", "12:00"].map((t) =>
        viaLink(`${link}/reschedule`, newAddress(), { reserved_on: at(t, date) }),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses[0], JSON.stringify(answers.map((a) => a.body))).toBe(200);
    expect([200, 409]).toContain(statuses[1]);
    const moves = statuses.filter((x) => x === 200).length;
    const rescheduled = (await rowsOf(made.uuid)).filter((r) => r.kind === "booking-rescheduled");
    expect(rescheduled).toHaveLength(2 * moves); // each move, e-mail and SMS
  });

  // DEFECT (medium; since a customer's move no longer revokes the link, the first step below
  // fails too: a leaked link cannot be revoked by a move at all, see docs/decisions.md):
  // revoking a link does not revoke what it handed out. GET /manage answers the
  // booking's uuid (and every message carries it in the .ics link), and the booking's uuid with
  // the salon's publishable key (in its web page) views, moves and cancels the booking for good:
  // a move "revokes" the link of someone who got hold of it, yet that someone cancels the
  // booking anyway. Right: once the link is revoked, nothing learnt from it changes the booking
  // (e.g. a publishable key's change needs the manage token, or the uuid is not handed out to
  // link holders and .ics links).
  it.fails(
    "a revoked link's holder cannot change the booking with the publishable key",
    async () => {
      const date = nextDay();
      const made = await bookWith(salon.ws.api, at("08:00", date), {
        phone: newPhone(),
        firstName: "Owner",
        email: "owner2@example.org",
      });
      const leaked = await linkOf(made.uuid);
      const outsider = newAddress();
      const seen = await viaLink(leaked, outsider);
      expect(seen.status).toBe(200);
      const uuid = seen.body.booking.uuid as string;
      // The customer notices and moves the booking: the leaked link is revoked.
      const moved = await viaLink(`${leaked}/reschedule`, newAddress(), {
        reserved_on: at("10:00", date),
      });
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      expect((await viaLink(leaked, outsider)).status).toBe(401);
      // The outsider still cancels it with the uuid the link showed and the page's key.
      await visitorAt(outsider)(`/bookings/${uuid}/status/cancel`, { method: "PUT", body: {} });
      const after = await salon.ws.api(`/bookings/${uuid}`);
      expect(after.body.is_canceled).toBe(false);
    },
  );
});

describe("many writers of one booking", () => {
  it("holds: a dozen moves of one booking fired at once from a dozen addresses: no 500, each success told once", async () => {
    const date = nextDay();
    const made = await bookWith(salon.ws.api, at("08:00", date), {
      phone: newPhone(),
      firstName: "Crowd",
      email: "crowd@example.org",
    });
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        visitorAt(newAddress())(`/bookings/${made.uuid}/reschedule`, {
          method: "PUT",
          // Each to a time of its own, so no success is a "move" to where the booking already is.
          body: {
            reserved_on: at(
              `${String(9 + Math.floor(i / 4)).padStart(2, "0")}:${String((i % 4) * 15).padStart(2, "0")}`,
              date,
            ),
          },
        }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    for (const a of answers) expect([200, 409, 429], JSON.stringify(a.body)).toContain(a.status);
    // The test pool's per-booking limit is 10 a minute: at least two are refused by it.
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(2);
    const moved = statuses.filter((s) => s === 200).length;
    expect(moved).toBeGreaterThanOrEqual(1);
    const rescheduled = (await rowsOf(made.uuid)).filter((r) => r.kind === "booking-rescheduled");
    expect(rescheduled).toHaveLength(2 * moved);
    // The booking is where the last success put it, and its reminder moved with it.
    const now = await salon.ws.api(`/bookings/${made.uuid}`);
    const reminder = (await rowsOf(made.uuid)).find((r) => r.kind === "booking-reminder");
    expect(reminder?.status).toBe("scheduled");
    const due = await everyShard
      .prepare(
        "select scheduled_for from messages where booking_id = ? and kind = 'booking-reminder'",
      )
      .bind(made.uuid)
      .first<{ scheduled_for: number }>();
    expect(due?.scheduled_for).toBe(Date.parse(now.body.start_time) - 86_400_000);
  });
});

describe("what a manage link's holder learns", () => {
  // Found in review (medium, privacy): a customer's uuid was SHA-256 of the workspace id and
  // the phone, unkeyed, and both are in a manage link holder's hands (GET /manage answers the
  // booking's customer_uuid; the token carries the workspace id in the clear). Trying the
  // numbers around the phone recovered it. Now the id is keyed with CUSTOMER_ID_SECRET
  // (src/platform/rules/customer-id.ts): the holder's unkeyed hash of the right number does not match.
  it("the customer's phone cannot be recovered from what a manage link shows", async () => {
    const date = nextDay();
    const phone = newPhone();
    const made = await bookWith(salon.ws.api, at("08:00", date), {
      phone,
      firstName: "Private",
      email: "private@example.org",
    });
    const token = await linkOf(made.uuid);
    const view = await viaLink(token, newAddress());
    expect(view.status).toBe(200);
    const shown = view.body.booking.customer_uuid as string;
    // The workspace id, read out of the token (bytes 17..32, after the version and the booking).
    const bytes = Uint8Array.from(atob(token.replace(/-/g, "+").replace(/_/g, "/")), (c) =>
      c.charCodeAt(0),
    );
    const hex = Array.from(bytes.slice(17, 33), (b) => b.toString(16).padStart(2, "0")).join("");
    const workspace = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    expect(workspace).toBe(salon.ws.id);
    const base = Number(phone.slice(6));
    let found: string | null = null;
    for (let n = base - 1000; n < base + 1000 && !found; n++) {
      const candidate = `+49151${n}`;
      if ((await customerIdFor(workspace, candidate, null)) === shown) found = candidate;
    }
    expect(found).toBeNull();
  });
});

describe("names and subjects", () => {
  const cartOf = (api: Client, date: string, name: Record<string, string>) =>
    api("/bookings/cart", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        items: [
          {
            datetime_start: at("09:00", date),
            services: [{ service_uuid: salon.cut.uuid, staffer_uuid: salon.staffers[2]?.uuid }],
          },
        ],
        customer_phone: newPhone(),
        customer_first_name: "Ann",
        ...name,
      },
    });

  it("holds: a cart's names are single lines of at most 100 characters (422 at the field, nothing written)", async () => {
    const me = visitorAt(newAddress());
    const date = nextDay();
    const cases: [Record<string, string>, string][] = [
      [{ customer_first_name: "Eve\u2028Subject: hi" }, "customer_first_name"],
      [{ customer_last_name: "Eve\r\nBcc: x@example.com" }, "customer_last_name"],
      [{ customer_middle_name: "\u202Emoc.elpmaxe" }, "customer_middle_name"],
      [{ customer_first_name: "A".repeat(101) }, "customer_first_name"],
      [{ customer_first_name: "Eve\u0085x" }, "customer_first_name"],
    ];
    for (const [name, field] of cases) {
      const res = await cartOf(me, date, name);
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual([field]);
    }
    const count = await everyShard
      .prepare("select count(*) as n from bookings where workspace_id = ? and start_at = ?")
      .bind(salon.ws.id, Date.parse(at("09:00", date)))
      .first<{ n: number }>();
    expect(count?.n).toBe(0);
    const fits = await cartOf(me, date, { customer_first_name: "A".repeat(100) });
    expect(fits.status, JSON.stringify(fits.body)).toBe(201);
  });

  it("holds: a name stored before the rule (with a line break) still makes a one-line subject", async () => {
    const own = await createSalon(1);
    const saved = await admin(`/workspaces/${own.ws.id}/notification-settings`, {
      method: "PUT",
      body: {
        email: { enabled: true, from_name: "Salon", from_email: "hello@salon.example" },
        sms: { enabled: false },
        reminders: [],
        templates: {
          "booking-rescheduled": {
            en: {
              subject: "Hi {{customer_first_name}}, moved",
              body: "Moved, {{customer_first_name}}.",
            },
          },
        },
      },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const date = nextDay();
    const made = await own.ws.api("/bookings", {
      method: "POST",
      body: {
        location_uuid: own.location.uuid,
        service_uuid: own.cut.uuid,
        staffer_uuid: own.staffers[0]?.uuid,
        reserved_on: at("08:00", date),
        customer_phone: newPhone(),
        customer_first_name: "Eve",
        customer_email: "eve@example.org",
      },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    await everyShard
      .prepare("update customers set first_name = ? where id = ?")
      .bind("Eve\r\nBcc: all@example.com\u2028\u202E", made.body.customer_uuid)
      .run();
    const moved = await own.ws.api(`/bookings/${made.body.uuid}/reschedule`, {
      method: "PUT",
      body: { reserved_on: at("10:00", date), is_send_notification_on_reschedule: true },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const row = await everyShard
      .prepare("select subject from messages where booking_id = ? and kind = 'booking-rescheduled'")
      .bind(made.body.uuid)
      .first<{ subject: string }>();
    expect(row?.subject).toMatch(/^Hi Eve Bcc: all@example\.com ?, moved$/);
  });
});

describe("what the documents say", () => {
  // Was a DEFECT (low, documentation), fixed: the customer change routes said each change tells the customer
  // ("Always sends the customer a booking-rescheduled message with a new link"), but past the
  // visitor's daily bound the message is written `skipped` (visitor_quota) and the write still
  // succeeds; only the create routes say so. Right: every route whose write a customer's bound
  // applies to says it.
  it("the customer change routes document the visitor's daily message bound", async () => {
    const doc = await send(`${PUBLIC}/openapi.json`);
    expect(doc.status).toBe(200);
    const paths = doc.body.paths as Record<string, Record<string, { description?: string }>>;
    const described = [
      paths["/bookings/{booking_uuid}/reschedule"]?.put,
      paths["/bookings/{booking_uuid}/status/cancel"]?.put,
      paths["/manage/{token}/reschedule"]?.post,
      paths["/manage/{token}/cancel"]?.post,
    ].map((op) => op?.description?.includes("visitor_quota") ?? false);
    expect(described).toEqual([true, true, true, true]);
  });
});
