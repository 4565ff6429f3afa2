import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { failpoints } from "../../src/platform/failpoints";
import { expectInSync } from "../helpers/calendar";
import { rowCount } from "../helpers/db";
import { countOf } from "../helpers/faults";
import { admin, d1RoundTrips } from "../helpers/http";
import { createPublishableKey } from "../helpers/keys";
import { setNotificationSettings } from "../helpers/messages";
import { createResource } from "../helpers/resources";
import { createSalon, customer, type Salon } from "../helpers/salon";

/**
 * POST /bookings/series and GET /series/{uuid}: a standing appointment booked
 * once, every occurrence checked as a single booking, all or nothing (reject)
 * or what fits (skip), 10:00 local on both sides of a DST change.
 */
let salon: Salon;
let other: Salon;
beforeAll(async () => {
  salon = await createSalon(3);
  other = await createSalon(1);
});

type Body = Record<string, unknown>;
const series = (body: Body, headers: Record<string, string> = {}) =>
  salon.ws.api("/bookings/series", { method: "POST", body, headers });

let phone = 0;
/** A customer of their own per test, so message and order counts are the test's. */
const someone = () => customer(`+49 151 7${String(++phone).padStart(7, "0")}`);

const seriesBody = (reserved_on: string, rule: string, extra: Body = {}): Body => ({
  location_uuid: salon.location.uuid,
  service_uuid: salon.cut.uuid,
  staffer_uuid: salon.staffers[0]?.uuid,
  reserved_on,
  recurrence: { rule },
  ...someone(),
  ...extra,
});

const starts = (bookings: { start_time: string }[]) => bookings.map((b) => b.start_time);
const staffOf = (bookings: { ordered_services: { staffer_uuid: string }[] }[]) => [
  ...new Set(bookings.map((b) => b.ordered_services[0]?.staffer_uuid)),
];

/** Rows a series write makes, in every table it writes (for "nothing half-written"). */
const TABLES = [
  "series",
  "bookings",
  "booking_services",
  "calendar_entries",
  "orders",
  "messages",
  "events",
];
const counts = async () =>
  Object.fromEntries(
    await Promise.all(TABLES.map(async (t) => [t, await rowCount(t, salon.ws.id)] as const)),
  );

const block = async (stafferId: string | undefined, from: string, to: string) => {
  const res = await salon.ws.api(`/staffers/${stafferId}/blocked-spots`, {
    method: "POST",
    body: { location_uuid: salon.location.uuid, starts_at: from, ends_at: to },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
};

describe("POST /bookings/series", () => {
  it("books a weekly series with one staffer, one order per visit, series_uuid everywhere", async () => {
    const res = await series(seriesBody("2030-04-01T08:00:00Z", "FREQ=WEEKLY;COUNT=4"));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const { series: made, bookings, skipped } = res.body;
    expect(made).toMatchObject({
      rule: "FREQ=WEEKLY;COUNT=4",
      location_uuid: salon.location.uuid,
      count: 4,
    });
    expect(made.customer_uuid).toBe(bookings[0].customer_uuid);
    expect(skipped).toEqual([]);
    expect(starts(bookings)).toEqual([
      "2030-04-01T08:00:00Z",
      "2030-04-08T08:00:00Z",
      "2030-04-15T08:00:00Z",
      "2030-04-22T08:00:00Z",
    ]);
    expect(staffOf(bookings)).toEqual([salon.staffers[0]?.uuid]);
    for (const b of bookings) expect(b.series_uuid).toBe(made.uuid);
    // Each visit is paid on its day: an order each, of one visit's price.
    expect(new Set(bookings.map((b: { order: { uuid: string } }) => b.order.uuid)).size).toBe(4);
    for (const b of bookings) expect(b.order.total).toBe(salon.cut.price);
    // One read batch, one write batch.
    expect(d1RoundTrips(res.headers)).toBeLessThanOrEqual(3);

    const got = await salon.ws.api(`/series/${made.uuid}`);
    expect(got.status).toBe(200);
    expect(got.body.series).toEqual(made);
    expect(got.body.bookings).toEqual(
      bookings.map((b: Body) => ({ ...b, policy: expect.anything() })),
    );
    const one = await salon.ws.api(`/bookings/${bookings[2].uuid}`);
    expect(one.body.series_uuid).toBe(made.uuid);
    const listed = await salon.ws.api(`/bookings?customer_uuid=${made.customer_uuid}`);
    expect(listed.body.data.map((b: { series_uuid: string }) => b.series_uuid)).toEqual(
      Array(4).fill(made.uuid),
    );
    // Order numbers: one each, consecutive.
    const numbers = (
      await Promise.all(
        bookings.map((b: { order: { uuid: string } }) =>
          countOf("select order_number as n from orders where id = ?", b.order.uuid),
        ),
      )
    ).sort((a, b) => a - b);
    expect(numbers).toEqual([0, 1, 2, 3].map((i) => (numbers[0] ?? 0) + i));
  });

  it("books every two weeks on two weekdays", async () => {
    const res = await series(
      seriesBody("2030-05-07T08:00:00Z", "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH;COUNT=6"),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(starts(res.body.bookings)).toEqual([
      "2030-05-07T08:00:00Z",
      "2030-05-09T08:00:00Z",
      "2030-05-21T08:00:00Z",
      "2030-05-23T08:00:00Z",
      "2030-06-04T08:00:00Z",
      "2030-06-06T08:00:00Z",
    ]);
    expect(res.body.series.rule).toBe("FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH;COUNT=6");
  });

  it("books monthly on the same day of the month", async () => {
    const res = await series(seriesBody("2030-04-03T12:00:00Z", "FREQ=MONTHLY;COUNT=3"));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(starts(res.body.bookings)).toEqual([
      "2030-04-03T12:00:00Z",
      "2030-05-03T12:00:00Z",
      "2030-06-03T12:00:00Z",
    ]);
  });

  it("keeps 10:00 local across both DST changes (Europe/Berlin)", async () => {
    // 31 March 2030: CET → CEST, 10:00 local is 09:00Z before and 08:00Z after.
    const staffer_uuid = salon.staffers[2]?.uuid;
    const spring = await series(
      seriesBody("2030-03-25T09:00:00Z", "FREQ=WEEKLY;COUNT=3", { staffer_uuid }),
    );
    expect(spring.status, JSON.stringify(spring.body)).toBe(201);
    expect(starts(spring.body.bookings)).toEqual([
      "2030-03-25T09:00:00Z",
      "2030-04-01T08:00:00Z",
      "2030-04-08T08:00:00Z",
    ]);
    // 27 October 2030: CEST → CET, 10:00 local is 08:00Z before and 09:00Z after.
    const autumn = await series(
      seriesBody("2030-10-21T08:00:00Z", "FREQ=WEEKLY;COUNT=3", { staffer_uuid }),
    );
    expect(autumn.status, JSON.stringify(autumn.body)).toBe(201);
    expect(starts(autumn.body.bookings)).toEqual([
      "2030-10-21T08:00:00Z",
      "2030-10-28T09:00:00Z",
      "2030-11-04T09:00:00Z",
    ]);
  });

  it("reject: one blocked occurrence refuses the whole series, nothing written", async () => {
    const staffer = salon.staffers[1]?.uuid;
    await block(staffer, "2030-06-17T07:30:00Z", "2030-06-17T09:00:00Z");
    const before = await counts();
    const res = await series(
      seriesBody("2030-06-10T08:00:00Z", "FREQ=WEEKLY;COUNT=4", { staffer_uuid: staffer }),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(res.body.code).toBe("slot_unavailable");
    expect(res.body.conflicts).toHaveLength(1);
    expect(res.body.conflicts[0]).toMatchObject({
      start: "2030-06-17T08:00:00Z",
      reason: "slot_unavailable",
    });
    expect(res.body.conflicts[0].alternatives.length).toBeGreaterThan(0);
    for (const a of res.body.conflicts[0].alternatives) expect(a.staffer_uuid).toBe(staffer);
    expect(await counts()).toEqual(before);
    // The staffer's other three weeks are still free.
    const free = await salon.ws.api("/bookings", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        service_uuid: salon.cut.uuid,
        staffer_uuid: staffer,
        reserved_on: "2030-06-10T08:00:00Z",
        ...someone(),
      },
    });
    expect(free.status).toBe(201);
  });

  it("skip: books what fits and says why the rest did not", async () => {
    const staffer = salon.staffers[1]?.uuid;
    await block(staffer, "2030-07-15T07:30:00Z", "2030-07-15T09:00:00Z");
    const before = await counts();
    // Daily from a Monday for a week: the weekend is outside working hours, Monday is blocked.
    const daily = await series(
      seriesBody("2030-07-15T08:00:00Z", "FREQ=DAILY;COUNT=7", {
        staffer_uuid: staffer,
        on_conflict: "skip",
      }),
    );
    expect(daily.status, JSON.stringify(daily.body)).toBe(201);
    expect(starts(daily.body.bookings)).toEqual([
      "2030-07-16T08:00:00Z",
      "2030-07-17T08:00:00Z",
      "2030-07-18T08:00:00Z",
      "2030-07-19T08:00:00Z",
    ]);
    expect(daily.body.series.count).toBe(4);
    expect(
      daily.body.skipped.map((s: { start: string; reason: string }) => [s.start, s.reason]),
    ).toEqual([
      ["2030-07-15T08:00:00Z", "slot_unavailable"],
      ["2030-07-20T08:00:00Z", "outside_working_hours"],
      ["2030-07-21T08:00:00Z", "outside_working_hours"],
    ]);
    // Alternatives never collide with the series' own occurrences.
    const own = new Set(starts(daily.body.bookings));
    for (const s of daily.body.skipped)
      for (const a of s.alternatives) expect(own.has(a.start)).toBe(false);
    const after = await counts();
    expect(after.series).toBe((before.series ?? 0) + 1);
    expect(after.bookings).toBe((before.bookings ?? 0) + 4);
    expect(after.orders).toBe((before.orders ?? 0) + 4);
  });

  it("skip with nothing bookable is 409 and writes nothing", async () => {
    const before = await counts();
    // Saturdays only: nobody works.
    const res = await series(
      seriesBody("2030-08-03T08:00:00Z", "FREQ=WEEKLY;COUNT=3", { on_conflict: "skip" }),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body.errors).toHaveProperty("reserved_on");
    expect(await counts()).toEqual(before);
    const taken = await series(seriesBody("2030-08-05T08:00:00Z", "FREQ=WEEKLY;COUNT=2"));
    expect(taken.status).toBe(201);
    const again = await series(
      seriesBody("2030-08-05T08:00:00Z", "FREQ=WEEKLY;COUNT=2", { on_conflict: "skip" }),
    );
    expect(again.status, JSON.stringify(again.body)).toBe(409);
    expect(again.body.conflicts).toHaveLength(2);
  });

  it("one staffer serves every occurrence when one can: the first free for all", async () => {
    const [a, b] = salon.staffers;
    // The first staffer is away one of the weeks: the second takes all four.
    await block(a?.uuid, "2030-09-09T07:00:00Z", "2030-09-09T10:00:00Z");
    const res = await series(
      seriesBody("2030-09-02T08:00:00Z", "FREQ=WEEKLY;COUNT=4", { staffer_uuid: undefined }),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const served = staffOf(res.body.bookings);
    expect(served).toHaveLength(1);
    expect(served[0]).not.toBe(a?.uuid);
    expect([b?.uuid, salon.staffers[2]?.uuid]).toContain(served[0]);
  });

  it("a first staffer who does not work on the first start's day is passed over, not a 422", async () => {
    const shop = await createSalon(3);
    // The staffer the engine tries first (lowest uuid) works Tuesday to Friday only.
    const [first] = shop.staffers.map((s) => s.uuid).sort();
    const put = await admin(`/workspaces/${shop.ws.id}/staffers/${first}/schedule`, {
      method: "PUT",
      body: {
        intervals: [2, 3, 4, 5].map((weekday) => ({
          location_uuid: shop.location.uuid,
          weekday,
          start: "09:00",
          end: "18:00",
        })),
      },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const res = await shop.ws.api("/bookings/series", {
      method: "POST",
      body: {
        location_uuid: shop.location.uuid,
        service_uuid: shop.cut.uuid,
        reserved_on: "2030-09-02T08:00:00Z",
        recurrence: { rule: "FREQ=WEEKLY;COUNT=3" },
        ...someone(),
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const served = staffOf(res.body.bookings);
    expect(served).toHaveLength(1);
    expect(served[0]).not.toBe(first);
  });

  it("auto-allocates each occurrence when no one staffer is free for all", async () => {
    const [a, b, c] = salon.staffers;
    // Each staffer is away on a different one of the weeks.
    await block(a?.uuid, "2030-09-30T07:00:00Z", "2030-09-30T10:00:00Z");
    await block(b?.uuid, "2030-10-07T07:00:00Z", "2030-10-07T10:00:00Z");
    await block(c?.uuid, "2030-10-14T07:00:00Z", "2030-10-14T10:00:00Z");
    const res = await series(
      seriesBody("2030-09-30T07:00:00Z", "FREQ=WEEKLY;COUNT=3", { staffer_uuid: undefined }),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(staffOf(res.body.bookings).length).toBeGreaterThan(1);
  });

  it("holds: a widget's hold is gone around first, and taken over (ended) only when the staffer must", async () => {
    const [a] = salon.staffers;
    const pk = await createPublishableKey(salon.ws);
    const origin = { origin: "https://salon.example" };
    const hold = (start: string, staffer?: string) =>
      pk.api("/reservations", {
        method: "POST",
        headers: origin,
        body: {
          location_uuid: salon.location.uuid,
          items: [
            {
              datetime_start: start,
              services: [{ service_uuid: salon.cut.uuid, staffer_uuid: staffer }],
            },
          ],
        },
      });
    // Anyone: a hold of the second week's time with the first staffer sends the series to another.
    const around = await hold("2031-02-10T08:00:00Z", a?.uuid);
    expect(around.status, JSON.stringify(around.body)).toBe(201);
    const free = await series(
      seriesBody("2031-02-03T08:00:00Z", "FREQ=WEEKLY;COUNT=3", { staffer_uuid: undefined }),
    );
    expect(free.status, JSON.stringify(free.body)).toBe(201);
    expect(staffOf(free.body.bookings)).not.toContain(a?.uuid);
    expect((await pk.api(`/reservations/${around.body.uuid}`, { headers: origin })).status).toBe(
      200,
    );
    // The staffer asked for: staff win, the hold ends.
    const over = await hold("2031-03-10T08:00:00Z", a?.uuid);
    expect(over.status, JSON.stringify(over.body)).toBe(201);
    const taken = await series(seriesBody("2031-03-03T08:00:00Z", "FREQ=WEEKLY;COUNT=3"));
    expect(taken.status, JSON.stringify(taken.body)).toBe(201);
    expect(starts(taken.body.bookings)).toContain("2031-03-10T08:00:00Z");
    expect((await pk.api(`/reservations/${over.body.uuid}`, { headers: origin })).status).toBe(404);
    await expectInSync(salon.ws.id, [a?.uuid ?? ""]);
  });

  it("one confirmation listing every date, a reminder and a booking-created event per occurrence", async () => {
    const before = await countOf(
      "select count(*) as n from events where workspace_id = ? and type = 'booking-created'",
      salon.ws.id,
    );
    const res = await series(seriesBody("2030-11-05T09:00:00Z", "FREQ=WEEKLY;COUNT=5"));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const customerId = res.body.series.customer_uuid;
    const confirmations = await salon.ws.api(
      `/messages?customer_uuid=${customerId}&kind=booking-confirmation`,
    );
    expect(confirmations.body.data).toHaveLength(1);
    const body: string = confirmations.body.data[0].body;
    // Five lines, one per date, in the location's zone (10:00 in Berlin).
    for (const day of ["November 5", "November 12", "November 19", "November 26", "December 3"])
      expect(body).toContain(`${day}, 2030, 10:00 AM: Haircut`);
    expect(body.match(/10:00 AM/g)?.length).toBe(5);
    const reminders = await salon.ws.api(
      `/messages?customer_uuid=${customerId}&kind=booking-reminder`,
    );
    expect(reminders.body.data).toHaveLength(5);
    const events = await countOf(
      "select count(*) as n from events where workspace_id = ? and type = 'booking-created'",
      salon.ws.id,
    );
    expect(events - before).toBe(5);
    const payloads = await countOf(
      "select count(*) as n from events where workspace_id = ? and type = 'booking-created' and json_extract(payload, '$.series_uuid') = ?",
      salon.ws.id,
      res.body.series.uuid,
    );
    expect(payloads).toBe(5);
  });
});

describe("bounds", () => {
  it("books 52 occurrences in one request within the calendar and D1 bounds", async () => {
    const res = await series(seriesBody("2031-01-06T09:00:00Z", "FREQ=WEEKLY;COUNT=52"));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.bookings).toHaveLength(52);
    const timing = res.headers.get("server-timing") ?? "";
    console.log(`52-occurrence series Server-Timing: ${timing}`);
    // One calendar (the staffer): one claim and one confirm.
    expect(timing).toContain('calendar-total;desc="2 calls"');
    expect(d1RoundTrips(res.headers)).toBeLessThanOrEqual(3);
  });

  it("52 occurrences at the most: a room, staff allocated per week, SMS and three reminders each, long templates", async () => {
    const big = await createSalon(3);
    const room = await createResource(big.ws, big.location.uuid);
    const treatment = await big.ws.api("/services", {
      method: "POST",
      body: { name: "Treatment", duration: 60, price: 5000, resource_uuids: [room.uuid] },
    });
    expect(treatment.status, JSON.stringify(treatment.body)).toBe(201);
    const long = "{{items}} ".repeat(10) + "x".repeat(4800);
    await setNotificationSettings(big.ws.id, {
      email: { enabled: true, from_name: "Salon", from_email: "salon@example.com" },
      sms: { enabled: true },
      reminders: [
        { channel: "email", minutes_before: 1440 },
        { channel: "sms", minutes_before: 60 },
        { channel: "email", minutes_before: 10080 },
      ],
      templates: { "booking-reminder": { en: { body: long } } },
    });
    // Every staffer is away on some weeks: no one serves all 52, each week is allocated.
    for (const [i, s] of big.staffers.entries()) {
      const day = new Date(Date.parse("2031-01-06T00:00:00Z") + 7 * (i + 1) * 86_400_000)
        .toISOString()
        .slice(0, 10);
      const res = await big.ws.api(`/staffers/${s.uuid}/blocked-spots`, {
        method: "POST",
        body: {
          location_uuid: big.location.uuid,
          starts_at: `${day}T07:00:00Z`,
          ends_at: `${day}T12:00:00Z`,
        },
      });
      expect(res.status).toBe(201);
    }
    const res = await big.ws.api("/bookings/series", {
      method: "POST",
      body: {
        location_uuid: big.location.uuid,
        service_uuid: treatment.body.uuid,
        reserved_on: "2031-01-06T09:00:00Z",
        recurrence: { rule: "FREQ=WEEKLY;COUNT=52" },
        ...customer(),
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.bookings).toHaveLength(52);
    expect(staffOf(res.body.bookings).length).toBeGreaterThan(1);
    const timing = res.headers.get("server-timing") ?? "";
    console.log(`52-occurrence series, worst case, Server-Timing: ${timing}`);
    expect(d1RoundTrips(res.headers)).toBeLessThanOrEqual(3);
    // 52 bookings, 52 orders, 52 events, 1 + 2 confirmations and 52 × 3 reminders.
    expect(await rowCount("messages", big.ws.id)).toBe(2 + 52 * 3);
    expect(await rowCount("orders", big.ws.id)).toBe(52);
  });

  it("refuses 53 occurrences (COUNT or UNTIL) with 422 at recurrence.rule", async () => {
    for (const [start, rule] of [
      ["2032-01-05T09:00:00Z", "FREQ=WEEKLY;COUNT=53"],
      ["2032-01-05T09:00:00Z", "FREQ=DAILY;UNTIL=20320226"],
    ] as const) {
      const before = await counts();
      const res = await series(seriesBody(start, rule));
      expect(res.status, rule).toBe(422);
      expect(res.body.code).toBe("validation_failed");
      expect(Object.keys(res.body.errors)).toEqual(["recurrence.rule"]);
      expect(await counts()).toEqual(before);
    }
  });

  it.each([
    "FREQ=YEARLY;COUNT=2",
    "FREQ=WEEKLY",
    "FREQ=WEEKLY;COUNT=1",
    "FREQ=WEEKLY;INTERVAL=0;COUNT=2",
    "FREQ=WEEKLY;INTERVAL=53;COUNT=2",
    "FREQ=DAILY;BYDAY=MO;COUNT=2",
    "FREQ=WEEKLY;BYDAY=2MO;COUNT=2",
    "FREQ=WEEKLY;BYMONTH=1;COUNT=2",
    "FREQ=WEEKLY;COUNT=2;UNTIL=20320301",
    "FREQ=WEEKLY;UNTIL=20330301",
    "FREQ=MONTHLY;COUNT=14",
    "FREQ=WEEKLY;BYDAY=TU;COUNT=2",
    "nonsense",
  ])("refuses the rule %j with 422 at recurrence.rule", async (rule) => {
    const res = await series(seriesBody("2032-01-05T09:00:00Z", rule));
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body).toMatchObject({ code: "validation_failed", message: expect.any(String) });
    expect(Object.keys(res.body.errors)).toEqual(["recurrence.rule"]);
  });

  it("refuses what a single booking refuses, on the same fields, writing nothing", async () => {
    const shop = await createSalon(1);
    const put = await admin(`/workspaces/${shop.ws.id}/booking-form`, {
      method: "PUT",
      body: { customer_email: "required" },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const body = {
      location_uuid: shop.location.uuid,
      service_uuid: shop.cut.uuid,
      reserved_on: "2032-01-05T09:00:00Z",
      recurrence: { rule: "FREQ=WEEKLY;COUNT=2" },
      ...someone(),
      customer_email: undefined,
    };
    const refused = async (sent: Body, field: string) => {
      const res = await shop.ws.api("/bookings/series", { method: "POST", body: sent });
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expect(Object.keys(res.body.errors)).toContain(field);
    };
    await refused(body, "customer_email");
    const complete = { ...body, customer_email: "anna@example.com" };
    await refused({ ...complete, service_uuid: crypto.randomUUID() }, "service_uuid");
    await refused({ ...complete, staffer_uuid: crypto.randomUUID() }, "staffer_uuid");
    await refused({ ...complete, location_uuid: crypto.randomUUID() }, "location_uuid");
    await refused({ ...complete, customer_phone: "12" }, "customer_phone");
    // In the past: the first start is what the client typed.
    await refused({ ...complete, reserved_on: "2020-01-06T09:00:00Z" }, "reserved_on");
    expect(await rowCount("bookings", shop.ws.id)).toBe(0);
    expect(await rowCount("series", shop.ws.id)).toBe(0);
    const ok = await shop.ws.api("/bookings/series", { method: "POST", body: complete });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
  });

  it("refuses a missing recurrence and a bad on_conflict", async () => {
    const body = seriesBody("2032-01-05T09:00:00Z", "FREQ=WEEKLY;COUNT=2");
    const { recurrence: _, ...without } = body;
    const res = await series(without);
    expect(res.status).toBe(422);
    expect(res.body.errors).toHaveProperty("recurrence");
    const bad = await series({ ...body, on_conflict: "maybe" });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toHaveProperty("on_conflict");
  });
});

describe("who may", () => {
  it("a publishable key is refused (403): a stranger must not hold a salon's year", async () => {
    const key = await createPublishableKey(salon.ws);
    const body = seriesBody("2032-02-02T09:00:00Z", "FREQ=WEEKLY;COUNT=2");
    const res = await key.api("/bookings/series", { method: "POST", body });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("forbidden");
    const made = await series(body);
    expect(made.status).toBe(201);
    const got = await key.api(`/series/${made.body.series.uuid}`);
    expect(got.status).toBe(403);
  });

  it("another workspace's series is not found (404)", async () => {
    const made = await series(seriesBody("2032-03-01T09:00:00Z", "FREQ=WEEKLY;COUNT=2"));
    expect(made.status).toBe(201);
    const res = await other.ws.api(`/series/${made.body.series.uuid}`);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("not_found");
    const unknown = await salon.ws.api(`/series/${crypto.randomUUID()}`);
    expect(unknown.status).toBe(404);
  });

  it("an idempotency key answers a repeat with the first answer and books once", async () => {
    const body = seriesBody("2032-04-05T09:00:00Z", "FREQ=WEEKLY;COUNT=3");
    const headers = { "idempotency-key": crypto.randomUUID() };
    const first = await series(body, headers);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const before = await counts();
    const second = await series(body, headers);
    expect(second.status).toBe(201);
    expect(second.body.series.uuid).toBe(first.body.series.uuid);
    expect(await counts()).toEqual(before);
  });
});

describe("races", () => {
  afterEach(() => failpoints.disarmAll());

  /** A single booking takes the third week while the series is between its read and its claim. */
  async function race(onConflict: "reject" | "skip", monday: string, third: string) {
    const staffer = salon.staffers[2]?.uuid;
    failpoints.meet("series.create.read", 2, 600);
    const pending = series(
      seriesBody(`${monday}T08:00:00Z`, "FREQ=WEEKLY;COUNT=4", {
        staffer_uuid: staffer,
        on_conflict: onConflict,
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const single = await salon.ws.api("/bookings", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        service_uuid: salon.cut.uuid,
        staffer_uuid: staffer,
        reserved_on: `${third}T08:00:00Z`,
        ...someone(),
      },
    });
    expect(single.status, JSON.stringify(single.body)).toBe(201);
    const res = await pending;
    await expectInSync(salon.ws.id, [staffer ?? ""]);
    return res;
  }

  it("reject: the calendar refuses the taken week and the series answers which one", async () => {
    const before = await counts();
    const res = await race("reject", "2033-03-07", "2033-03-21");
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(res.body.conflicts.map((c: { start: string }) => c.start)).toEqual([
      "2033-03-21T08:00:00Z",
    ]);
    const after = await counts();
    // Only the single booking was written.
    expect(after.bookings).toBe((before.bookings ?? 0) + 1);
    expect(after.series).toBe(before.series);
  });

  it("two series for the same weeks at once: one books them all, the other books none", async () => {
    const staffer = salon.staffers[2]?.uuid;
    const before = await counts();
    const both = await Promise.all(
      [0, 1].map(() =>
        series(
          seriesBody("2033-05-02T08:00:00Z", "FREQ=WEEKLY;COUNT=8", { staffer_uuid: staffer }),
        ),
      ),
    );
    expect(both.map((r) => r.status).sort()).toEqual([201, 409]);
    const lost = both.find((r) => r.status === 409);
    expect(lost?.body.conflicts.length).toBeGreaterThan(0);
    const after = await counts();
    expect(after.bookings).toBe((before.bookings ?? 0) + 8);
    expect(after.series).toBe((before.series ?? 0) + 1);
    await expectInSync(salon.ws.id, [staffer ?? ""]);
  });

  it("skip: the series plans again without the taken week", async () => {
    const res = await race("skip", "2033-04-04", "2033-04-18");
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(starts(res.body.bookings)).toEqual([
      "2033-04-04T08:00:00Z",
      "2033-04-11T08:00:00Z",
      "2033-04-25T08:00:00Z",
    ]);
    expect(res.body.skipped).toMatchObject([
      { start: "2033-04-18T08:00:00Z", reason: "slot_unavailable" },
    ]);
  });
});
