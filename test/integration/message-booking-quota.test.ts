import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client";
import { insertMessages } from "../../src/messages/queries/messages";
import { type Client, PUBLIC, send } from "../helpers/http";
import {
  addresses,
  bookFor,
  bookingMessageRows,
  createMessagingSalon,
  fate,
  fromAddress,
  weekdays,
} from "../helpers/messages";
import { at, type Salon } from "../helpers/salon";
import { everyShard, shardOf } from "../helpers/every-shard";

/**
 * A stranger who rotates client addresses is held by no per-address bound: the
 * customer-caused moves of ONE booking tell its customer at most 5 times a day
 * on each channel, whoever moves it and from wherever; past that the messages
 * are written `skipped` (`booking_quota`) and the move itself succeeds. Staff
 * are never bounded, another booking is not affected, a cancel is always told.
 */

const PER_BOOKING = 5;

let salon: Salon;
let pk: Client;
beforeAll(async () => {
  // Both channels on: every announcement is an e-mail and an SMS.
  ({ salon, pk } = await createMessagingSalon(3));
});

/** A weekday of its own per call (from Monday 2032-09-06), so tests never share calendar time. */
const nextDay = weekdays(Date.UTC(2032, 8, 6));

/** A client address of its own: every request of a pumping stranger comes from a new one. */
const newAddress = addresses("198.51.100.");

let phones = 0;
const newPhone = () => `+49151${String(70_000_000 + ++phones)}`;

const fromNewAddress = (path: string, sent: { method?: string; body?: unknown } = {}) =>
  fromAddress(pk, newAddress())(path, sent);

const book = async (api: Client, start: string, phone: string, staffer = 0) => {
  const res = await bookFor(
    salon,
    api,
    start,
    {
      customer_phone: phone,
      customer_first_name: "Victim",
      customer_email: `victim${phone.slice(1)}@example.org`,
    },
    staffer,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.uuid as string;
};

const moveFromNewAddress = (id: string, start: string) =>
  fromNewAddress(`/bookings/${id}/reschedule`, { method: "PUT", body: { reserved_on: start } });

interface Row {
  kind: string;
  channel: string;
  status: string;
  error: string | null;
}

const rowsOf = (id: string) =>
  bookingMessageRows<Row>(salon.ws.id, [id], "kind, channel, status, error");

/** The fates of a booking's messages of one kind on one channel, oldest first. */
const fates = async (id: string, kind: string, channel: string) =>
  (await rowsOf(id)).filter((r) => r.kind === kind && r.channel === channel).map(fate);

/** Two starts of the day to move between: no move is one to where the booking already is. */
const toAndFro = (date: string, i: number) => at(i % 2 === 0 ? "10:00" : "08:00", date);

describe("a booking's customer-caused messages per day", () => {
  it(`moves of one booking from a new address each time: past ${PER_BOOKING} a day they are skipped (booking_quota); the cancel is told`, async () => {
    const date = nextDay();
    const id = await book(fromNewAddress, at("08:00", date), newPhone());
    for (let i = 0; i < PER_BOOKING + 2; i++) {
      const moved = await moveFromNewAddress(id, toAndFro(date, i));
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    }
    const expected = [
      ...Array<string>(PER_BOOKING).fill("told"),
      "skipped:booking_quota",
      "skipped:booking_quota",
    ];
    expect(await fates(id, "booking-rescheduled", "email")).toEqual(expected);
    expect(await fates(id, "booking-rescheduled", "sms")).toEqual(expected);
    // The reminder is neither counted nor bounded: it moved with every change.
    expect(await fates(id, "booking-reminder", "email")).toEqual(["told"]);
    // The GET shows the reason.
    const listed = await salon.ws.api(`/messages?per_page=100&booking_uuid=${id}&status=skipped`);
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((m: { error: string }) => m.error)).toEqual(
      Array(4).fill("booking_quota"),
    );
    // A booking is canceled once: its cancel is told however many moves came before.
    const gone = await fromNewAddress(`/bookings/${id}/status/cancel`, { method: "PUT", body: {} });
    expect(gone.status, JSON.stringify(gone.body)).toBe(200);
    expect(await fates(id, "booking-canceled", "email")).toEqual(["told"]);
    expect(await fates(id, "booking-canceled", "sms")).toEqual(["told"]);
  });

  it("manage-link moves count toward the booking's bound as the publishable key's do", async () => {
    const date = nextDay();
    const id = await book(salon.ws.api, at("08:00", date), newPhone());
    for (let i = 0; i < PER_BOOKING - 1; i++) {
      const moved = await moveFromNewAddress(id, toAndFro(date, i));
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    }
    // The customer's link of the last move, used twice from two more addresses.
    const last = await everyShard
      .prepare(
        `select body from messages where booking_id = ? and kind = 'booking-rescheduled'
       and channel = 'email' order by created_at desc limit 1`,
      )
      .bind(id)
      .first<{ body: string }>();
    let token = /\/widget\/manage\?token=([A-Za-z0-9_-]+)/.exec(last?.body ?? "")?.[1];
    for (const hhmm of ["12:00", "13:00"]) {
      const moved = await send(`${PUBLIC}/manage/${token}/reschedule`, {
        method: "POST",
        body: { reserved_on: at(hhmm, date) },
        headers: { "cf-connecting-ip": newAddress() },
      });
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      token = moved.body.manage.token as string;
    }
    expect(await fates(id, "booking-rescheduled", "email")).toEqual([
      ...Array<string>(PER_BOOKING).fill("told"),
      "skipped:booking_quota",
    ]);
  });

  it("a burst of moves of one booking fired at once from many addresses never tells past the bound", async () => {
    const date = nextDay();
    const id = await book(fromNewAddress, at("08:00", date), newPhone());
    // Three moves first, so that two more reach the bound and the burst has to cross it.
    for (let i = 0; i < 3; i++) {
      const moved = await moveFromNewAddress(id, toAndFro(date, i));
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    }
    const burst = await Promise.all(
      Array.from({ length: 7 }, (_, i) =>
        moveFromNewAddress(
          id,
          at(`${12 + Math.floor(i / 4)}:${String((i % 4) * 15).padStart(2, "0")}`, date),
        ),
      ),
    );
    for (const a of burst) expect([200, 409, 429], JSON.stringify(a.body)).toContain(a.status);
    const moves = 3 + burst.filter((a) => a.status === 200).length;
    for (const channel of ["email", "sms"]) {
      const written = await fates(id, "booking-rescheduled", channel);
      expect(written).toHaveLength(moves);
      expect(written.filter((f) => f === "told")).toHaveLength(Math.min(moves, PER_BOOKING));
      expect(written.filter((f) => f !== "told")).toEqual(
        Array(Math.max(0, moves - PER_BOOKING)).fill("skipped:booking_quota"),
      );
    }
  });

  it("another booking of the same phone is told; staff's moves of the full booking are told", async () => {
    const date = nextDay();
    const phone = newPhone();
    const full = await book(fromNewAddress, at("08:00", date), phone);
    const other = await book(fromNewAddress, at("14:00", date), phone, 1);
    for (let i = 0; i <= PER_BOOKING; i++) {
      const moved = await moveFromNewAddress(full, toAndFro(date, i));
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    }
    expect((await fates(full, "booking-rescheduled", "email")).at(-1)).toBe(
      "skipped:booking_quota",
    );
    // The same customer's other booking has a bound of its own.
    const moved = await moveFromNewAddress(other, at("15:00", date));
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(await fates(other, "booking-rescheduled", "email")).toEqual(["told"]);
    // Staff are never bounded, and their messages do not count toward a customer's.
    for (const hhmm of ["12:00", "13:00"]) {
      const staffs = await salon.ws.api(`/bookings/${full}/reschedule`, {
        method: "PUT",
        body: { reserved_on: at(hhmm, date), is_send_notification_on_reschedule: true },
      });
      expect(staffs.status, JSON.stringify(staffs.body)).toBe(200);
    }
    expect((await fates(full, "booking-rescheduled", "sms")).slice(-2)).toEqual(["told", "told"]);
  });
});

describe("the count's plan", () => {
  it("counts a booking's messages through messages_booking_idx (no extra round trip, no workspace scan)", async () => {
    // The plan of the workspace's own database: the union view would repeat it once per shard.
    const shard = (await shardOf(salon.ws.id)).db;
    const db = createDb(shard);
    const scope = { db, workspaceId: salon.ws.id };
    const now = Date.now();
    const [statement] = insertMessages(
      scope,
      [
        {
          id: crypto.randomUUID(),
          workspaceId: salon.ws.id,
          bookingId: crypto.randomUUID(),
          customerId: crypto.randomUUID(),
          kind: "booking-rescheduled",
          channel: "email",
          to: "x@example.org",
          locale: "en",
          subject: "s",
          body: "b",
          status: "scheduled",
          scheduledFor: now,
          attempts: 0,
          createdAt: now,
          visitor: "v",
        },
      ],
      {
        visitor: { perVisitor: 20, windowMs: 86_400_000, error: "visitor_quota" },
        booking: {
          perBooking: PER_BOOKING,
          windowMs: 86_400_000,
          error: "booking_quota",
          kinds: ["booking-rescheduled"],
        },
        recipient: {
          perRecipient: 10,
          keyOf: (row) => `email:${row.to}`,
          dayOf: (row) => Math.floor(row.scheduledFor / 86_400_000),
          reason: "recipient_quota",
        },
        workspace: { defaultBudget: 500, reason: "workspace_quota", event: "quota-reached" },
        day: Math.floor(now / 86_400_000),
      },
    );
    const query = (statement as unknown as { toSQL(): { sql: string; params: unknown[] } }).toSQL();
    expect(query.sql).toContain("booking_id");
    const plan = await shard
      .prepare(`explain query plan ${query.sql}`)
      .bind(...query.params)
      .all<{ detail: string }>();
    const details = plan.results.map((r) => r.detail);
    // Two counts (the visitor's, the booking's), each in the status, error and skip_reason column.
    expect(details.filter((d) => d.includes("USING INDEX messages_booking_idx"))).toHaveLength(3);
    expect(details.filter((d) => d.includes("USING INDEX messages_visitor_idx"))).toHaveLength(3);
    expect(details.filter((d) => /SCAN messages\b/.test(d) && !d.includes("INDEX"))).toEqual([]);
  });
});

describe("what the documents say", () => {
  it("the customer change routes and the message's error document the booking's daily bound", async () => {
    const doc = await send(`${PUBLIC}/openapi.json`);
    expect(doc.status).toBe(200);
    const paths = doc.body.paths as Record<string, Record<string, { description?: string }>>;
    const described = [
      paths["/bookings/{booking_uuid}/reschedule"]?.put,
      paths["/bookings/{booking_uuid}/status/cancel"]?.put,
      paths["/manage/{token}/reschedule"]?.post,
      paths["/manage/{token}/cancel"]?.post,
    ].map((op) => op?.description?.includes("booking_quota") ?? false);
    expect(described).toEqual([true, true, true, true]);
    expect(JSON.stringify(doc.body.components.schemas.Message)).toContain("booking_quota");
  });
});
