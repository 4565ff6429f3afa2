import { beforeAll, describe, expect, it } from "vitest";
import { type Client, PUBLIC, send } from "../helpers/http";
import {
  addresses,
  announcements,
  bookFor,
  bookingMessageRows,
  createMessagingSalon,
  fate,
  fromAddress,
  told,
  weekdays,
} from "../helpers/messages";
import { at, type Salon } from "../helpers/salon";
import { everyShard } from "../helpers/every-shard";

/**
 * A stranger with the widget's key must not make the salon send messages at
 * will to an address the stranger chose: a visitor's bookings of the day
 * count whether canceled or not (book-then-cancel is two messages), and the
 * messages one visitor's writes cause (publishable key or manage link, by
 * client address) past 20 a day are written `skipped` (`visitor_quota`).
 */

const BOOKINGS_CAP = 6;
const MESSAGES_CAP = 20;

let salon: Salon;
let pk: Client;
beforeAll(async () => {
  // SMS on: every announcement is two messages (e-mail and SMS), as a pumping target would get.
  ({ salon, pk } = await createMessagingSalon(3));
});

/** A weekday of its own per call (from Monday 2031-10-06), so tests never share calendar time. */
const nextDay = weekdays(Date.UTC(2031, 9, 6));

const newAddress = addresses("192.0.2.");
/** The publishable key from one client address (a visitor). */
const visitorAt = (ip: string) => fromAddress(pk, ip);

// A new phone and inbox per booking: the per-recipient bound (10 a day) is another test's.
let targets = 0;
const target = () => ({
  customer_phone: `+49151${String(77_000_000 + ++targets)}`,
  customer_first_name: "Target",
  customer_email: `target${targets}@example.org`,
});

const book = (api: Client, start: string, staffer = 0) =>
  bookFor(salon, api, start, target(), staffer);

const cancel = (api: Client, id: string) =>
  api(`/bookings/${id}/status/cancel`, { method: "PUT", body: {} });

interface Row {
  booking_id: string;
  kind: string;
  channel: string;
  status: string;
  error: string | null;
}

/** The message rows of these bookings, oldest first. */
const rowsOf = (ids: string[]) =>
  bookingMessageRows<Row>(salon.ws.id, ids, "booking_id, kind, channel, status, error");

describe("bookings per visitor count canceled ones", () => {
  it("book-then-cancel 7 times: the 7th booking is 429 too_many_bookings", async () => {
    const me = visitorAt(newAddress());
    const day = nextDay();
    for (let i = 0; i < BOOKINGS_CAP; i++) {
      const made = await book(me, at(`${String(8 + i).padStart(2, "0")}:00`, day));
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      const gone = await cancel(me, made.body.uuid);
      expect(gone.status, JSON.stringify(gone.body)).toBe(200);
    }
    const seventh = await book(me, at("14:00", day));
    expect(seventh.status, JSON.stringify(seventh.body)).toBe(429);
    expect(seventh.body.code).toBe("too_many_bookings");
    expect(Number(seventh.headers.get("retry-after"))).toBeGreaterThan(86_400 - 120);
  });

  it("a booking staff canceled no longer counts (the salon's decision, not the visitor's)", async () => {
    const me = visitorAt(newAddress());
    const day = nextDay();
    const made: string[] = [];
    for (let i = 0; i < BOOKINGS_CAP; i++) {
      const res = await book(me, at(`${String(8 + i).padStart(2, "0")}:00`, day));
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      made.push(res.body.uuid);
    }
    expect((await book(me, at("14:00", day))).status).toBe(429);
    const byStaff = await cancel(salon.ws.api, made[0] ?? "");
    expect(byStaff.status, JSON.stringify(byStaff.body)).toBe(200);
    const again = await book(me, at("14:00", day));
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect((await book(me, at("15:00", day))).status).toBe(429);
  });
});

/**
 * Reaches a visitor's bound of 20 with three bookings (6 confirmations) and
 * seven moves (14), at most three of one booking, so that no booking's own
 * daily bound (5 moves per channel) is what skips a message.
 */
const fillVisitorBound = async (me: Client, day: string) => {
  const ids: string[] = [];
  for (const [i, hhmm] of ["09:00", "10:00", "11:00"].entries()) {
    const made = await book(me, at(hhmm, day), i);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    ids.push(made.body.uuid as string);
  }
  for (let i = 0; i < 7; i++) {
    const n = i % 3;
    const moved = await me(`/bookings/${ids[n]}/reschedule`, {
      method: "PUT",
      body: {
        reserved_on: at(`${String(9 + n).padStart(2, "0")}:${i < 3 || i >= 6 ? "30" : "00"}`, day),
      },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
  }
  return ids;
};

describe("messages per visitor", () => {
  it(`past ${MESSAGES_CAP} a day a visitor's messages are skipped (visitor_quota); another visitor's are not`, async () => {
    const ip = newAddress();
    const me = visitorAt(ip);
    const day = nextDay();
    const ids = await fillVisitorBound(me, day);
    const id = ids[2] ?? "";
    expect(announcements(await rowsOf(ids)).map(fate)).toEqual(Array(MESSAGES_CAP).fill("told"));

    // The cancel succeeds but is told no more: both of its messages are past the bound.
    expect((await cancel(me, id)).status).toBe(200);
    const rows = announcements(await rowsOf(ids));
    expect(rows).toHaveLength(22);
    expect(rows.slice(MESSAGES_CAP).map((r) => [r.kind, fate(r)])).toEqual([
      ["booking-canceled", "skipped:visitor_quota"],
      ["booking-canceled", "skipped:visitor_quota"],
    ]);
    // The GET shows the reason.
    const listed = await salon.ws.api(`/messages?per_page=100&booking_uuid=${id}&status=skipped`);
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((m: { error: string }) => m.error)).toEqual([
      "visitor_quota",
      "visitor_quota",
    ]);

    // Another visitor of the page is not affected.
    const other = await book(visitorAt(newAddress()), at("11:00", day));
    expect(other.status, JSON.stringify(other.body)).toBe(201);
    expect(announcements(await rowsOf([other.body.uuid])).map(fate)).toEqual(["told", "told"]);
    // Staff writes are never bounded, whatever address they come from.
    const staffs = await salon.ws.api(`/bookings/${other.body.uuid}/reschedule`, {
      method: "PUT",
      body: { reserved_on: at("12:00", day), is_send_notification_on_reschedule: true },
      headers: { "cf-connecting-ip": ip },
    });
    expect(staffs.status, JSON.stringify(staffs.body)).toBe(200);
    expect(
      announcements(await rowsOf([other.body.uuid]))
        .filter((r) => r.kind === "booking-rescheduled")
        .map(fate),
    ).toEqual(["told", "told"]);
  });

  it("manage-link writes count against their client address, as a publishable key's do", async () => {
    const ip = newAddress();
    const me = visitorAt(ip);
    const day = nextDay();
    // 20 announcements: the visitor's bound is reached.
    const ids = await fillVisitorBound(me, day);
    expect(announcements(await rowsOf(ids)).map(fate)).toEqual(Array(MESSAGES_CAP).fill("told"));

    // A staff booking's manage link, used from the visitor's address: skipped.
    const staffs = await book(salon.ws.api, at("13:00", day), 1);
    expect(staffs.status).toBe(201);
    const sid = staffs.body.uuid as string;
    const confirmation = await everyShard
      .prepare(
        "select body from messages where booking_id = ? and kind = 'booking-confirmation' and channel = 'email'",
      )
      .bind(sid)
      .first<{ body: string }>();
    const token = /\/widget\/manage\?token=([A-Za-z0-9_-]+)/.exec(confirmation?.body ?? "")?.[1];
    expect(token).toBeTruthy();
    const viaLink = (link: string | undefined, from: string, hhmm: string) =>
      send(`${PUBLIC}/manage/${link}/reschedule`, {
        method: "POST",
        body: { reserved_on: at(hhmm, day) },
        headers: { "cf-connecting-ip": from },
      });
    const fromMe = await viaLink(token, ip, "14:00");
    expect(fromMe.status, JSON.stringify(fromMe.body)).toBe(200);
    // A move revokes the links issued before it: the next move uses the one its answer gave.
    const fromElsewhere = await viaLink(fromMe.body.manage.token, newAddress(), "15:00");
    expect(fromElsewhere.status, JSON.stringify(fromElsewhere.body)).toBe(200);
    expect(announcements(await rowsOf([sid])).map((r) => [r.kind, fate(r)])).toEqual([
      ["booking-confirmation", "told"],
      ["booking-confirmation", "told"],
      ["booking-rescheduled", "skipped:visitor_quota"],
      ["booking-rescheduled", "skipped:visitor_quota"],
      ["booking-rescheduled", "told"],
      ["booking-rescheduled", "told"],
    ]);
  });

  it("bookings and cancels fired at once by one visitor never pass either bound", async () => {
    const me = visitorAt(newAddress());
    const day = nextDay();
    const first = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        book(me, at(`${String(8 + Math.floor(i / 3)).padStart(2, "0")}:00`, day), i % 3),
      ),
    );
    const made = first.filter((r) => r.status === 201).map((r) => r.body.uuid as string);
    expect(made, JSON.stringify(first.map((r) => r.body))).toHaveLength(BOOKINGS_CAP);
    // 12 confirmations; the 12 cancel messages fired at once pass 20: exactly 4 are skipped.
    const canceled = await Promise.all(made.map((id) => cancel(me, id)));
    expect(canceled.map((r) => r.status)).toEqual(made.map(() => 200));
    const second = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        book(me, at(`${String(8 + Math.floor(i / 3)).padStart(2, "0")}:30`, day), i % 3),
      ),
    );
    expect(second.map((r) => r.status)).toEqual(second.map(() => 429));

    const rows = announcements(await rowsOf(made));
    expect(rows).toHaveLength(24);
    expect(rows.filter(told)).toHaveLength(MESSAGES_CAP);
    const skipped = rows.filter((r) => !told(r));
    expect(skipped.map((r) => [r.kind, fate(r)])).toEqual(
      Array(4).fill(["booking-canceled", "skipped:visitor_quota"]),
    );
  });
});
