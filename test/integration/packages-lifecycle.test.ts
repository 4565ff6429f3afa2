import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { manageToken } from "../../src/bookings/manage-link";
import { failpoints } from "../../src/platform/failpoints";
import { everyShard } from "../helpers/every-shard";
import { type Client, d1RoundTrips, PUBLIC, send } from "../helpers/http";
import { createPublishableKey } from "../helpers/keys";
import { createExpressService } from "../helpers/packages";
import { at, createSalon, customer, type Salon } from "../helpers/salon";
import { weeklyLocal } from "../helpers/series";

/**
 * What becomes of a booking's held credit: complete uses it, a cancel gives
 * it back unless the policy copied into the use says a late cancel or a
 * no-show uses it, a move past the credit's expiry is refused, a replaced
 * service gives it back (or keeps it when the credit names the new service).
 * Each end happens once, in the ending change's batch, under any race.
 * The credit is held here by planting the use row beside a plain booking
 * (what booking with `customer_package_uuid` writes).
 */

const DAY = 86_400_000;
const FAR = Date.parse("2031-06-01T00:00:00Z");
/** A late-cancel window wider than any test's distance to its booking: every cancel is late. */
const ALWAYS_LATE = 60 * 24 * 365 * 20;

let salon: Salon;
let widget: Client;
let anna: string;
const ANNA = "+49 151 23456789";

let week = 0;
/** A fresh Monday for each test: no two tests share a time. */
const nextMonday = () => {
  week += 1;
  return new Date(Date.UTC(2030, 6, 1) + week * 7 * DAY).toISOString().slice(0, 10);
};

interface Planted {
  id: string;
  creditId: string;
}

/** A customer package with one credit naming `services`. */
async function plant(
  customerId: string,
  services: string[],
  opts: { total?: number; expiresAt?: number } = {},
): Promise<Planted> {
  const now = Date.now();
  const templateId = crypto.randomUUID();
  const id = crypto.randomUUID();
  const creditId = crypto.randomUUID();
  const total = opts.total ?? 3;
  const expiresAt = opts.expiresAt ?? FAR;
  const ws = salon.ws.id;
  await everyShard
    .prepare(
      "insert into packages (id, workspace_id, name, price, currency, credits, valid_days, created_at, updated_at) values (?, ?, 'Ten cuts', 30000, 'EUR', ?, 365, ?, ?)",
    )
    .bind(templateId, ws, JSON.stringify([{ service_ids: services, count: total }]), now, now)
    .run();
  await everyShard
    .prepare(
      "insert into customer_packages (id, workspace_id, package_id, customer_id, order_id, order_line_id, name, price, currency, valid_days, credit_lines, status, starts_at, expires_at, location_id, created_at, updated_at) values (?, ?, ?, ?, ?, ?, 'Ten cuts', 30000, 'EUR', 365, '[]', 'active', ?, ?, ?, ?, ?)",
    )
    .bind(
      id,
      ws,
      templateId,
      customerId,
      crypto.randomUUID(),
      crypto.randomUUID(),
      now,
      expiresAt,
      salon.location.uuid,
      now,
      now,
    )
    .run();
  await everyShard
    .prepare(
      "insert into customer_package_credits (id, workspace_id, customer_package_id, period, position, service_ids, total, used, reserved, expires_at) values (?, ?, ?, 1, 0, ?, ?, 0, 0, ?)",
    )
    .bind(creditId, ws, id, JSON.stringify(services), total, expiresAt)
    .run();
  return { id, creditId };
}

interface Booked {
  uuid: string;
  start_time: string;
  ordered_services: { uuid: string }[];
}

/** Holds one credit for each of a booking's services, as booking with the package does. */
async function hold(
  pkg: Planted,
  booking: Booked,
  policy: { lateCancelMinutes?: number | null; noShowUses?: boolean; bookedAt?: number } = {},
) {
  for (const service of booking.ordered_services) {
    await everyShard
      .prepare(
        "insert into package_credit_uses (id, workspace_id, booking_id, booking_service_id, customer_package_id, credit_id, count, state, late_cancel_minutes, no_show_uses, created_at, updated_at) values (?, ?, ?, ?, ?, ?, 1, 'reserved', ?, ?, ?, ?)",
      )
      .bind(
        crypto.randomUUID(),
        salon.ws.id,
        booking.uuid,
        service.uuid,
        pkg.id,
        pkg.creditId,
        policy.lateCancelMinutes ?? null,
        policy.noShowUses ? 1 : 0,
        // Booked before any window opened (ALWAYS_LATE's too): a cancel inside one is late.
        policy.bookedAt ?? 0,
        Date.now(),
      )
      .run();
    await everyShard
      .prepare("update customer_package_credits set reserved = reserved + 1 where id = ?")
      .bind(pkg.creditId)
      .run();
  }
}

/** Anna's weekly cuts at 10:00 from `firstDay` (`POST /bookings/series`, 201 asserted). */
async function weeklyCuts(
  firstDay: string,
  count: number,
  opts: { staffer?: number; customer_package_uuid?: string } = {},
) {
  const starts = weeklyLocal(firstDay, "10:00", count);
  const created = await salon.ws.api("/bookings/series", {
    method: "POST",
    body: {
      location_uuid: salon.location.uuid,
      service_uuid: salon.cut.uuid,
      staffer_uuid: salon.staffers[opts.staffer ?? 0]?.uuid,
      reserved_on: starts[0],
      recurrence: { rule: `FREQ=WEEKLY;COUNT=${count}` },
      on_conflict: "reject",
      customer_package_uuid: opts.customer_package_uuid,
      ...customer(ANNA),
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return {
    id: created.body.series.uuid as string,
    starts,
    bookings: created.body.bookings as Booked[],
  };
}

/** Cancels a whole series with the secret key (200 asserted). */
async function cancelSeries(id: string) {
  const res = await salon.ws.api(`/series/${id}/cancel`, { method: "PUT", body: {} });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

const counts = async (creditId: string) =>
  everyShard
    .prepare("select total, used, reserved from customer_package_credits where id = ?")
    .bind(creditId)
    .first<{ total: number; used: number; reserved: number }>();

const states = async (bookingId: string) =>
  (
    await everyShard
      .prepare("select state from package_credit_uses where booking_id = ? order by id")
      .bind(bookingId)
      .all<{ state: string }>()
  ).results.map((r) => r.state);

interface CreditUsedEvent {
  booking_uuid: string;
  booking_service_uuid: string;
  customer_package: {
    uuid: string;
    status: string;
    credits: { total: number; used: number; reserved: number }[];
  };
}

const usedEvents = async (bookingId: string) =>
  (
    await everyShard
      .prepare(
        "select payload from events where workspace_id = ? and type = 'package-credit-used' and json_extract(payload, '$.booking_uuid') = ?",
      )
      .bind(salon.ws.id, bookingId)
      .all<{ payload: string }>()
  ).results.map((r) => JSON.parse(r.payload) as CreditUsedEvent);

/** Anna's booking at `start` (201 asserted), made with the secret key unless `api` is given. */
async function book(
  start: string,
  opts: { service?: string; customer_package_uuid?: string; api?: Client } = {},
): Promise<Booked> {
  const res = await (opts.api ?? salon.ws.api)("/bookings", {
    method: "POST",
    body: {
      location_uuid: salon.location.uuid,
      service_uuid: opts.service ?? salon.cut.uuid,
      reserved_on: start,
      customer_package_uuid: opts.customer_package_uuid,
      ...customer(ANNA),
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as Booked;
}

/** A booking holding one credit of a fresh package. */
async function heldBooking(policy: Parameters<typeof hold>[2] = {}, opts = {}) {
  const pkg = await plant(anna, [salon.cut.uuid, salon.colour.uuid], opts);
  const booking = await book(at("10:00", nextMonday()));
  await hold(pkg, booking, policy);
  return { pkg, booking };
}

const cancel = (id: string, body: Record<string, unknown> = {}, api: Client = salon.ws.api) =>
  api(`/bookings/${id}/status/cancel`, { method: "PUT", body });
const complete = (id: string) =>
  salon.ws.api(`/bookings/${id}/status/complete`, { method: "PUT", body: { paid_amount: 0 } });

beforeAll(async () => {
  salon = await createSalon(2);
  widget = (await createPublishableKey(salon.ws)).api;
  const first = await book(at("08:00", "2030-06-03"));
  const read = await salon.ws.api(`/bookings/${first.uuid}`);
  anna = read.body.customer_uuid;
});

afterEach(() => failpoints.disarmAll());

describe("complete", () => {
  it("uses the held credit and says so in package-credit-used, with the package as it is left", async () => {
    const { pkg, booking } = await heldBooking();
    const res = await complete(booking.uuid);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await counts(pkg.creditId)).toEqual({ total: 3, used: 1, reserved: 0 });
    expect(await states(booking.uuid)).toEqual(["used"]);
    const events = await usedEvents(booking.uuid);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      booking_uuid: booking.uuid,
      booking_service_uuid: booking.ordered_services[0]?.uuid,
      customer_package: {
        uuid: pkg.id,
        status: "active",
        credits: [{ total: 3, used: 1, reserved: 0 }],
      },
    });
  });
});

describe("cancel", () => {
  it("early (outside the use's late-cancel window) gives the credit back: no event", async () => {
    const { pkg, booking } = await heldBooking({ lateCancelMinutes: 60 });
    const plain = await book(at("15:00", nextMonday()));
    const without = await cancel(plain.uuid);
    expect(without.status).toBe(200);
    const res = await cancel(booking.uuid);
    expect(res.status).toBe(200);
    // The uses are read in the cancel's own read batch: no round trip more than without a credit.
    const trips = [d1RoundTrips(res.headers), d1RoundTrips(without.headers)];
    console.log(`D1 round trips of a cancel: with a credit ${trips[0]}, without ${trips[1]}`);
    expect(trips[0]).toBe(trips[1]);
    expect(await counts(pkg.creditId)).toEqual({ total: 3, used: 0, reserved: 0 });
    expect(await states(booking.uuid)).toEqual(["returned"]);
    expect(await usedEvents(booking.uuid)).toEqual([]);
  });

  it("inside the late-cancel window uses it (by the publishable key too); a second cancel changes nothing", async () => {
    const { pkg, booking } = await heldBooking({ lateCancelMinutes: ALWAYS_LATE });
    const res = await cancel(booking.uuid, {}, widget);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await counts(pkg.creditId)).toEqual({ total: 3, used: 1, reserved: 0 });
    expect(await states(booking.uuid)).toEqual(["used"]);
    expect(await usedEvents(booking.uuid)).toHaveLength(1);
    const again = await cancel(booking.uuid);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("booking_closed");
    expect(await counts(pkg.creditId)).toEqual({ total: 3, used: 1, reserved: 0 });
    expect(await usedEvents(booking.uuid)).toHaveLength(1);
  });

  it("a booking made inside its window gives the credit back on a cancel: nobody burns credits by book-then-cancel", async () => {
    const pkg = await plant(anna, [salon.cut.uuid]);
    const booking = await book(at("11:00", nextMonday()), {
      customer_package_uuid: pkg.id,
      api: widget,
    });
    // The service's window as copied covers the whole time from now to the start.
    await everyShard
      .prepare("update package_credit_uses set late_cancel_minutes = ? where booking_id = ?")
      .bind(ALWAYS_LATE, booking.uuid)
      .run();
    expect((await cancel(booking.uuid, {}, widget)).status).toBe(200);
    expect(await counts(pkg.creditId)).toEqual({ total: 3, used: 0, reserved: 0 });
    expect(await states(booking.uuid)).toEqual(["returned"]);
    expect(await usedEvents(booking.uuid)).toEqual([]);
  });

  it("a no-show uses it when the policy had a no-show fee, and gives it back when not", async () => {
    const fee = await heldBooking({ noShowUses: true });
    expect((await cancel(fee.booking.uuid, { cancel_reason: "didnt_come" })).status).toBe(200);
    expect(await counts(fee.pkg.creditId)).toEqual({ total: 3, used: 1, reserved: 0 });
    expect(await usedEvents(fee.booking.uuid)).toHaveLength(1);

    const none = await heldBooking({ noShowUses: false });
    expect((await cancel(none.booking.uuid, { cancel_reason: "didnt_come" })).status).toBe(200);
    expect(await counts(none.pkg.creditId)).toEqual({ total: 3, used: 0, reserved: 0 });
    expect(await states(none.booking.uuid)).toEqual(["returned"]);
    expect(await usedEvents(none.booking.uuid)).toEqual([]);
  });

  it("through the manage link gives it back", async () => {
    const { pkg, booking } = await heldBooking({ lateCancelMinutes: 60 });
    const token = await manageToken(env, {
      id: booking.uuid,
      workspaceId: salon.ws.id,
      customerId: anna,
      endAt: Date.parse(booking.start_time) + DAY,
    });
    const res = await send(`${PUBLIC}/manage/${token}/cancel`, {
      method: "POST",
      headers: { "cf-connecting-ip": "198.51.100.77" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await counts(pkg.creditId)).toEqual({ total: 3, used: 0, reserved: 0 });
    expect(await states(booking.uuid)).toEqual(["returned"]);
  });

  it("of a series ends every occurrence's credit in one change: the late one used, the others given back", async () => {
    const pkg = await plant(anna, [salon.cut.uuid], { total: 4 });
    const { id: seriesId, bookings } = await weeklyCuts("2030-09-03", 3);
    // The first occurrence's use was booked under a window that makes this cancel late.
    for (const [i, b] of bookings.entries())
      await hold(pkg, b, { lateCancelMinutes: i === 0 ? ALWAYS_LATE : 60 });
    expect(await counts(pkg.creditId)).toEqual({ total: 4, used: 0, reserved: 3 });
    await cancelSeries(seriesId);
    expect(await counts(pkg.creditId)).toEqual({ total: 4, used: 1, reserved: 0 });
    expect(await Promise.all(bookings.map((b) => states(b.uuid)))).toEqual([
      ["used"],
      ["returned"],
      ["returned"],
    ]);
    const events = await Promise.all(bookings.map((b) => usedEvents(b.uuid)));
    expect(events.map((e) => e.length)).toEqual([1, 0, 0]);
    expect(events[0]?.[0]?.customer_package.credits).toMatchObject([
      { total: 4, used: 1, reserved: 0 },
    ]);
  });
});

describe("a cancel and a complete racing", () => {
  it("end as one of them: the credit used once or given back, never both", async () => {
    const outcomes = new Set<string>();
    for (let round = 0; round < 6; round++) {
      const { pkg, booking } = await heldBooking({ lateCancelMinutes: 60 });
      failpoints.meet("booking.change.before_write", 2, 5_000);
      // Either one sent first, in turn.
      const [c, d] =
        round % 2 === 0
          ? await Promise.all([cancel(booking.uuid), complete(booking.uuid)])
          : await Promise.all([complete(booking.uuid), cancel(booking.uuid)]).then(
              ([x, y]) => [y, x] as const,
            );
      const won = [c, d].filter((r) => r.status === 200);
      expect(won, JSON.stringify([c.body, d.body])).toHaveLength(1);
      const lost = [c, d].find((r) => r.status !== 200);
      expect(lost?.status).toBe(409);
      expect(["booking_closed", "booking_changed"]).toContain(lost?.body.code);
      const after = await counts(pkg.creditId);
      const events = await usedEvents(booking.uuid);
      if (c.status === 200) {
        outcomes.add("canceled");
        expect(after).toEqual({ total: 3, used: 0, reserved: 0 });
        expect(await states(booking.uuid)).toEqual(["returned"]);
        expect(events).toEqual([]);
      } else {
        outcomes.add("completed");
        expect(after).toEqual({ total: 3, used: 1, reserved: 0 });
        expect(await states(booking.uuid)).toEqual(["used"]);
        expect(events).toHaveLength(1);
      }
    }
    console.log(`cancel vs complete outcomes: ${[...outcomes].join(", ")}`);
    // The race was real: the loser's write was refused by the booking's version guard.
    expect(failpoints.hits("booking.guard_refused")).toBeGreaterThan(0);
  });
});

describe("reschedule", () => {
  it("past the credit's expiry is refused with 409 package_unavailable, nothing moved; before it, it moves", async () => {
    const date = nextMonday();
    const start = Date.parse(at("10:00", date));
    const pkg = await plant(anna, [salon.cut.uuid], { expiresAt: start + 2 * DAY });
    const booking = await book(at("10:00", date));
    await hold(pkg, booking);
    const later = new Date(start + 2 * DAY).toISOString();
    const refused = await salon.ws.api(`/bookings/${booking.uuid}/reschedule`, {
      method: "PUT",
      body: { reserved_on: later },
    });
    expect(refused.status, JSON.stringify(refused.body)).toBe(409);
    expect(refused.body.code).toBe("package_unavailable");
    const still = await salon.ws.api(`/bookings/${booking.uuid}`);
    expect(still.body.start_time).toBe(booking.start_time);
    const sooner = new Date(start + DAY).toISOString();
    const moved = await salon.ws.api(`/bookings/${booking.uuid}/reschedule`, {
      method: "PUT",
      body: { reserved_on: sooner },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(await counts(pkg.creditId)).toEqual({ total: 3, used: 0, reserved: 1 });
  });
});

describe("reschedule through the manage link and of a series", () => {
  it("past the credit's expiry: 409 package_unavailable, nothing moved", async () => {
    const date = nextMonday();
    const start = Date.parse(at("12:00", date));
    const pkg = await plant(anna, [salon.cut.uuid], { expiresAt: start + 2 * DAY });
    const booking = await book(at("12:00", date));
    await hold(pkg, booking);
    const token = await manageToken(env, {
      id: booking.uuid,
      workspaceId: salon.ws.id,
      customerId: anna,
      endAt: Date.parse(booking.start_time) + DAY,
    });
    const res = await send(`${PUBLIC}/manage/${token}/reschedule`, {
      method: "POST",
      headers: { "cf-connecting-ip": "198.51.100.78" },
      body: { reserved_on: new Date(start + 3 * DAY).toISOString() },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(res.body.code).toBe("package_unavailable");
    expect((await salon.ws.api(`/bookings/${booking.uuid}`)).body.start_time).toBe(
      booking.start_time,
    );

    // A series whose last occurrence would move past the credit's expiry moves none.
    const { id: seriesId, starts, bookings } = await weeklyCuts("2030-11-05", 2);
    const last = Date.parse(bookings[1]?.start_time ?? "");
    const series = await plant(anna, [salon.cut.uuid], { expiresAt: last + DAY / 2 });
    for (const b of bookings) await hold(series, b);
    const moved = await salon.ws.api(`/series/${seriesId}/reschedule`, {
      method: "PUT",
      body: {
        from_booking_uuid: bookings[0]?.uuid,
        reserved_on: new Date(Date.parse(starts[0] ?? "") + DAY).toISOString(),
      },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(409);
    expect(moved.body.code).toBe("package_unavailable");
    const after = await salon.ws.api(`/series/${seriesId}`);
    expect((after.body.bookings as Booked[]).map((b) => b.start_time)).toEqual(
      bookings.map((b) => b.start_time),
    );
  });
});

describe("replacing a credit-paid service", () => {
  it("keeps the credit when it names the new service (price 0), gives it back otherwise (catalogue price)", async () => {
    const pkg = await plant(anna, [salon.cut.uuid, salon.colour.uuid]);
    const booking = await book(at("10:00", nextMonday()));
    await hold(pkg, booking);
    const kept = await salon.ws.api(`/bookings/${booking.uuid}/services`, {
      method: "PUT",
      body: { service_uuid: salon.colour.uuid },
    });
    expect(kept.status, JSON.stringify(kept.body)).toBe(200);
    expect(kept.body.ordered_services[0]).toMatchObject({ price: 0, original_price: 8900 });
    expect(await counts(pkg.creditId)).toEqual({ total: 3, used: 0, reserved: 1 });

    const narrow = await plant(anna, [salon.cut.uuid]);
    const other = await book(at("14:00", nextMonday()));
    await hold(narrow, other);
    const back = await salon.ws.api(`/bookings/${other.uuid}/services`, {
      method: "PUT",
      body: { service_uuid: salon.colour.uuid },
    });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body.ordered_services[0]).toMatchObject({ price: 7900 });
    expect(await counts(narrow.creditId)).toEqual({ total: 3, used: 0, reserved: 0 });
    expect(await states(other.uuid)).toEqual(["returned"]);
  });
});

describe("booked with customer_package_uuid (the create path)", () => {
  it("a credit-paid prepay service with fees: a no-show with charge_fee uses the credit and takes no money", async () => {
    const express = (await createExpressService(salon.ws)).uuid;
    const pkg = await plant(anna, [express]);
    const booking = await book(at("11:00", nextMonday()), {
      service: express,
      customer_package_uuid: pkg.id,
      api: widget,
    });
    expect(await counts(pkg.creditId)).toEqual({ total: 3, used: 0, reserved: 1 });
    const canceled = await cancel(booking.uuid, { cancel_reason: "didnt_come", charge_fee: true });
    expect(canceled.status, JSON.stringify(canceled.body)).toBe(200);
    expect(await counts(pkg.creditId)).toEqual({ total: 3, used: 1, reserved: 0 });
    expect(await usedEvents(booking.uuid)).toHaveLength(1);
    // The credit is the fee: no payment terms, so nothing to settle, no fee in the ledger.
    const money = await everyShard
      .prepare(
        "select (select count(*) from booking_payments where booking_id = ?1) as terms, (select count(*) from payments where booking_id = ?1) as movements",
      )
      .bind(booking.uuid)
      .first<{ terms: number; movements: number }>();
    expect(money).toEqual({ terms: 0, movements: 0 });
  });

  it("a series paid by credits: cancelling it gives every one back", async () => {
    const pkg = await plant(anna, [salon.cut.uuid], { total: 4 });
    const { id: seriesId, bookings } = await weeklyCuts("2030-10-01", 3, {
      staffer: 1,
      customer_package_uuid: pkg.id,
    });
    expect(await counts(pkg.creditId)).toEqual({ total: 4, used: 0, reserved: 3 });
    const done = bookings[0] as Booked;
    // Paid by the credit: nothing is due, so it completes with no account and no amount.
    const completed = await salon.ws.api(`/bookings/${done.uuid}/status/complete`, {
      method: "PUT",
      body: {},
    });
    expect(completed.status, JSON.stringify(completed.body)).toBe(200);
    expect(await usedEvents(done.uuid)).toHaveLength(1);
    await cancelSeries(seriesId);
    expect(await counts(pkg.creditId)).toEqual({ total: 4, used: 1, reserved: 0 });
    expect(await Promise.all(bookings.map((b) => states(b.uuid)))).toEqual([
      ["used"],
      ["returned"],
      ["returned"],
    ]);
  });

  it("two cancels racing end it once: one answer 200, the credit used once, one event", async () => {
    const pkg = await plant(anna, [salon.cut.uuid]);
    const booking = await book(at("15:00", nextMonday()), { customer_package_uuid: pkg.id });
    // The policy copied into the use: make every cancel late (booked before the window opened).
    await everyShard
      .prepare(
        "update package_credit_uses set late_cancel_minutes = ?, created_at = 0 where booking_id = ?",
      )
      .bind(ALWAYS_LATE, booking.uuid)
      .run();
    failpoints.meet("booking.change.before_write", 2, 1_000);
    const answers = await Promise.all([cancel(booking.uuid), cancel(booking.uuid)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(await counts(pkg.creditId)).toEqual({ total: 3, used: 1, reserved: 0 });
    expect(await usedEvents(booking.uuid)).toHaveLength(1);
  });
});
