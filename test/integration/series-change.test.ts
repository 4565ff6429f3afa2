import { beforeAll, describe, expect, it } from "vitest";
import { entriesOf, expectInSync, expectUnitsInSync } from "../helpers/calendar";
import { createWorkspace } from "../helpers/factory";
import { PUBLIC, send } from "../helpers/http";
import { createPublishableKey } from "../helpers/keys";
import { createResource } from "../helpers/resources";
import { createSalon, customer, type Salon } from "../helpers/salon";
import { seedSeries, weekly, weeklyLocal } from "../helpers/series";
import { everyShard } from "../helpers/every-shard";

/**
 * Series changes (cancel and reschedule from one occurrence on) through HTTP:
 * what moves, what stays, and that a refused change writes nothing.
 */
let salon: Salon;
let staff: string[];
beforeAll(async () => {
  salon = await createSalon(2);
  staff = salon.staffers.map((s) => s.uuid);
});

const cancel = (seriesId: string, body: unknown, api = salon.ws.api) =>
  api(`/series/${seriesId}/cancel`, { method: "PUT", body });
const reschedule = (seriesId: string, body: unknown, api = salon.ws.api) =>
  api(`/series/${seriesId}/reschedule`, { method: "PUT", body });

const bookingRow = (id: string) =>
  everyShard
    .prepare(
      "select start_at, end_at, is_canceled, is_completed, version, series_id, cancel_reason from bookings where id = ?",
    )
    .bind(id)
    .first<{
      start_at: number;
      end_at: number;
      is_canceled: number;
      is_completed: number;
      version: number;
      series_id: string | null;
      cancel_reason: string | null;
    }>();

const seriesVersion = async (id: string) =>
  (
    await everyShard
      .prepare("select version from series where id = ?")
      .bind(id)
      .first<{ version: number }>()
  )?.version;

const count = async (sql: string, ...binds: unknown[]) =>
  (
    await everyShard
      .prepare(sql)
      .bind(...binds)
      .first<{ n: number }>()
  )?.n ?? 0;

/** What a refused change must leave exactly as it was. */
async function snapshot(seriesId: string, bookings: string[]) {
  const ids = JSON.stringify(bookings);
  return {
    series: await seriesVersion(seriesId),
    bookings: await Promise.all(bookings.map(bookingRow)),
    entries: (
      await everyShard
        .prepare(
          "select id, staffer_id, starts_at, ends_at from calendar_entries where source_id in (select value from json_each(?)) order by id",
        )
        .bind(ids)
        .all()
    ).results,
    messages: (
      await everyShard
        .prepare(
          // Confirmations go out on their own meanwhile; reminders and the rows' number must not move.
          "select id, kind, scheduled_for, case when kind = 'booking-reminder' then status end as status from messages where booking_id in (select value from json_each(?)) order by id",
        )
        .bind(ids)
        .all()
    ).results,
    events: await count("select count(*) as n from events where workspace_id = ?", salon.ws.id),
  };
}

describe("PUT /series/{uuid}/cancel", () => {
  it("cancels every upcoming occurrence: one change, one event each, reminders canceled", async () => {
    const s = await seedSeries(salon, { starts: weekly("2031-03-04T10:00:00Z", 4) });
    const eventsBefore = await count(
      "select count(*) as n from events where workspace_id = ? and type = 'booking-canceled'",
      salon.ws.id,
    );
    const res = await cancel(s.id, { cancel_reason: "postponed" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.series).toMatchObject({
      uuid: s.id,
      count: 4,
      location_uuid: salon.location.uuid,
    });
    expect(res.body.bookings.map((b: { uuid: string }) => b.uuid)).toEqual(s.bookings);
    for (const b of res.body.bookings) {
      expect(b).toMatchObject({ is_canceled: true, cancel_reason: "postponed" });
      // The answer is the booking as stored.
      expect((await salon.ws.api(`/bookings/${b.uuid}`)).body).toEqual(b);
    }
    for (const id of s.bookings) {
      expect(await bookingRow(id)).toMatchObject({ is_canceled: 1, version: 1 });
      expect(await entriesOf(id)).toEqual([]);
    }
    expect(await seriesVersion(s.id)).toBe(1);
    expect(
      await count(
        "select count(*) as n from events where workspace_id = ? and type = 'booking-canceled'",
        salon.ws.id,
      ),
    ).toBe(eventsBefore + 4);
    expect(
      await count(
        "select count(*) as n from messages where booking_id in (select value from json_each(?)) and kind = 'booking-reminder' and status = 'scheduled'",
        JSON.stringify(s.bookings),
      ),
    ).toBe(0);
    // One booking-canceled message for the series on the e-mail channel, not one per occurrence.
    expect(
      await count(
        "select count(*) as n from messages where booking_id in (select value from json_each(?)) and kind = 'booking-canceled'",
        JSON.stringify(s.bookings),
      ),
    ).toBe(1);
    await expectInSync(salon.ws.id, staff);
    // The freed time is bookable again.
    const again = await salon.ws.api("/bookings", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        service_uuid: salon.cut.uuid,
        staffer_uuid: staff[0],
        reserved_on: "2031-03-11T10:00:00Z",
        ...customer("+49 151 70000099"),
      },
    });
    expect(again.status, JSON.stringify(again.body)).toBe(201);
  });

  it("tells the customer every canceled date in one message, in their language", async () => {
    // Tuesdays at 10:00 Berlin, on both sides of the DST change of 2032-03-28.
    const s = await seedSeries(salon, {
      starts: weeklyLocal("2032-03-16", "10:00", 4),
      phone: "+49 151 70000030",
      language: "de",
    });
    const res = await cancel(s.id, { from_booking_uuid: s.bookings[1] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const told = await salon.ws.api(
      `/messages?per_page=100&customer_uuid=${s.customerId}&kind=booking-canceled`,
    );
    expect(told.status, JSON.stringify(told.body)).toBe(200);
    expect(told.body.data).toHaveLength(1);
    const [message] = told.body.data;
    expect(message).toMatchObject({ locale: "de", channel: "email", booking_uuid: s.bookings[1] });
    for (const date of [
      "Dienstag, 23. März 2032",
      "Dienstag, 30. März 2032",
      "Dienstag, 6. April 2032",
    ])
      expect(message.body).toContain(`${date}, 10:00`);
    // The first occurrence is not canceled, so not named.
    expect(message.body).not.toContain("16. März");
  });

  it("cancels from one occurrence on; earlier, past, completed and canceled ones stay as they are", async () => {
    const s = await seedSeries(salon, { starts: weekly("2031-04-01T10:00:00Z", 6) });
    const [first, second, third, fourth, fifth, sixth] = s.bookings as [
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    // The fourth is canceled on its own, the fifth completed, before the series cancel.
    expect(
      (
        await salon.ws.api(`/bookings/${fourth}/status/cancel`, {
          method: "PUT",
          body: { cancel_reason: "other" },
        })
      ).status,
    ).toBe(200);
    // Completing takes a payment account; marked completed in D1 instead (it is not under test).
    await everyShard
      .prepare("update bookings set is_completed = 1, completed_at = 1 where id = ?")
      .bind(fifth)
      .run();
    const before = await Promise.all([first, second, fourth, fifth].map(bookingRow));
    const res = await cancel(s.id, { from_booking_uuid: third });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const after = await Promise.all([first, second, fourth, fifth].map(bookingRow));
    expect(after).toEqual(before);
    expect(await bookingRow(third)).toMatchObject({ is_canceled: 1, cancel_reason: "canceled" });
    expect(await bookingRow(sixth)).toMatchObject({ is_canceled: 1 });
    expect(await entriesOf(first)).toHaveLength(1);
    expect(await entriesOf(third)).toEqual([]);
    await expectInSync(salon.ws.id, staff);
  });

  it("leaves an occurrence in the past alone, and answers as-is when nothing is left to cancel", async () => {
    const s = await seedSeries(salon, { starts: weekly("2031-05-20T10:00:00Z", 2) });
    const [past, next] = s.bookings as [string, string];
    // Made past in D1 (a booking cannot be made in the past through the API).
    await everyShard
      .prepare("update bookings set start_at = 1000000, end_at = 2000000 where id = ?")
      .bind(past)
      .run();
    const res = await cancel(s.id, {});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await bookingRow(past)).toMatchObject({ is_canceled: 0, version: 0 });
    expect(await bookingRow(next)).toMatchObject({ is_canceled: 1 });
    const again = await cancel(s.id, {});
    expect(again.status).toBe(200);
    expect(await seriesVersion(s.id)).toBe(1);
  });

  it("refuses a from_booking_uuid that is not in the series (422) and writes nothing", async () => {
    const s = await seedSeries(salon, { starts: weekly("2031-06-03T10:00:00Z", 2) });
    const other = await seedSeries(salon, { starts: weekly("2031-06-04T10:00:00Z", 2) });
    const before = await snapshot(s.id, s.bookings);
    const res = await cancel(s.id, { from_booking_uuid: other.bookings[0] });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: "validation_failed" });
    expect(res.body.errors).toHaveProperty("from_booking_uuid");
    expect(await snapshot(s.id, s.bookings)).toEqual(before);
  });
});

describe("PUT /series/{uuid}/reschedule", () => {
  it("moves an occurrence and every later one by the same local time across a DST change", async () => {
    // Tuesdays at 10:00 Berlin: CET (09:00Z) until 2031-03-30, CEST (08:00Z) after.
    const starts = [
      "2031-03-18T09:00:00Z",
      "2031-03-25T09:00:00Z",
      "2031-04-01T08:00:00Z",
      "2031-04-08T08:00:00Z",
    ];
    const s = await seedSeries(salon, { starts, staffer: 1 });
    const [first, second, third, fourth] = s.bookings as [string, string, string, string];
    // The second occurrence, 10:00 → 11:00 local.
    const res = await reschedule(s.id, {
      from_booking_uuid: second,
      reserved_on: "2031-03-25T10:00:00Z",
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await bookingRow(first)).toMatchObject({
      start_at: Date.parse(starts[0] ?? ""),
      version: 0,
    });
    expect(await bookingRow(second)).toMatchObject({
      start_at: Date.parse("2031-03-25T10:00:00Z"),
    });
    // 11:00 CEST is 09:00Z.
    expect(await bookingRow(third)).toMatchObject({ start_at: Date.parse("2031-04-01T09:00:00Z") });
    expect(await bookingRow(fourth)).toMatchObject({
      start_at: Date.parse("2031-04-08T09:00:00Z"),
      series_id: s.id,
    });
    expect(res.body.bookings[2].start_time).toBe("2031-04-01T09:00:00Z");
    expect(await entriesOf(fourth)).toEqual([
      {
        staffer_id: staff[1],
        starts_at: Date.parse("2031-04-08T09:00:00Z"),
        ends_at: Date.parse("2031-04-08T10:00:00Z"),
      },
    ]);
    // Reminders moved with each occurrence.
    const reminder = await everyShard
      .prepare(
        "select scheduled_for from messages where booking_id = ? and kind = 'booking-reminder' and status = 'scheduled'",
      )
      .bind(third)
      .first<{ scheduled_for: number }>();
    expect(reminder?.scheduled_for).toBe(Date.parse("2031-04-01T09:00:00Z") - 1440 * 60_000);
    await expectInSync(salon.ws.id, staff);
  });

  it("refuses the whole move when one occurrence cannot go (409 conflicts) and writes nothing", async () => {
    const starts = weekly("2031-09-02T09:00:00Z", 3);
    const s = await seedSeries(salon, { starts, phone: "+49 151 70000010" });
    // Someone else holds 12:00Z on the third Tuesday.
    const blocker = await salon.ws.api("/bookings", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        service_uuid: salon.cut.uuid,
        staffer_uuid: staff[0],
        reserved_on: "2031-09-16T12:00:00Z",
        ...customer("+49 151 70000011"),
      },
    });
    expect(blocker.status).toBe(201);
    const before = await snapshot(s.id, s.bookings);
    const res = await reschedule(s.id, {
      from_booking_uuid: s.bookings[0],
      reserved_on: "2031-09-02T12:00:00Z",
    });
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(res.body.code).toBe("slot_unavailable");
    expect(res.body.conflicts).toHaveLength(1);
    expect(res.body.conflicts[0].start).toBe("2031-09-16T12:00:00Z");
    expect(res.body.conflicts[0].alternatives.length).toBeGreaterThan(0);
    expect(await snapshot(s.id, s.bookings)).toEqual(before);
    await expectInSync(salon.ws.id, staff);
  });

  it("answers 422 for an occurrence of another series, a start in the past, or outside hours", async () => {
    const s = await seedSeries(salon, { starts: weekly("2031-10-07T09:00:00Z", 2) });
    const other = await seedSeries(salon, { starts: weekly("2031-10-08T09:00:00Z", 2) });
    const before = await snapshot(s.id, s.bookings);
    const foreign = await reschedule(s.id, {
      from_booking_uuid: other.bookings[0],
      reserved_on: "2031-10-07T10:00:00Z",
    });
    expect(foreign.status).toBe(422);
    expect(foreign.body.errors).toHaveProperty("from_booking_uuid");
    const past = await reschedule(s.id, {
      from_booking_uuid: s.bookings[0],
      reserved_on: "2020-10-07T10:00:00Z",
    });
    expect(past.status).toBe(422);
    expect(past.body.errors).toHaveProperty("reserved_on");
    const night = await reschedule(s.id, {
      from_booking_uuid: s.bookings[0],
      reserved_on: "2031-10-07T22:00:00Z",
    });
    expect(night.status).toBe(422);
    expect(night.body.errors).toHaveProperty("reserved_on");
    for (const body of [
      {},
      { from_booking_uuid: "nope", reserved_on: "2031-10-07T10:00:00Z" },
      { from_booking_uuid: s.bookings[0], reserved_on: "2031-10-07T10:00:00.5Z" },
      { from_booking_uuid: s.bookings[0] },
    ]) {
      const res = await reschedule(s.id, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.code).toBe("validation_failed");
    }
    const badReason = await cancel(s.id, { cancel_reason: "bored" });
    expect(badReason.status).toBe(422);
    expect(await snapshot(s.id, s.bookings)).toEqual(before);
  });

  it("a single occurrence moved with the booking reschedule stays in the series", async () => {
    const s = await seedSeries(salon, { starts: weekly("2031-11-04T09:00:00Z", 2) });
    const res = await salon.ws.api(`/bookings/${s.bookings[1]}/reschedule`, {
      method: "PUT",
      body: { reserved_on: "2031-11-11T13:00:00Z" },
    });
    expect(res.status).toBe(200);
    expect(await bookingRow(s.bookings[1] ?? "")).toMatchObject({ series_id: s.id });
    // And the series still finds it: a series cancel from it cancels it.
    const canceled = await cancel(s.id, { from_booking_uuid: s.bookings[1] });
    expect(canceled.status).toBe(200);
    expect(canceled.body.bookings[1]).toMatchObject({
      is_canceled: true,
      start_time: "2031-11-11T13:00:00Z",
    });
  });
});

describe("a series whose service needs a room", () => {
  it("moves the room's unit with every occurrence, and a room taken by another staffer's booking is a conflict", async () => {
    const room = await createResource(salon.ws, salon.location.uuid, { name: "Series room" });
    const massage = await salon.ws.api("/services", {
      method: "POST",
      body: { name: "Massage", duration: 45, price: 6000, resource_uuids: [room.uuid] },
    });
    expect(massage.status, JSON.stringify(massage.body)).toBe(201);
    const starts = weekly("2032-02-03T09:00:00Z", 3);
    const s = await seedSeries(salon, { starts, serviceId: massage.body.uuid });
    // The other staffer has the room at 13:00Z on the second Tuesday.
    const other = await salon.ws.api("/bookings", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        service_uuid: massage.body.uuid,
        staffer_uuid: staff[1],
        reserved_on: "2032-02-10T13:00:00Z",
        ...customer("+49 151 70000020"),
      },
    });
    expect(other.status, JSON.stringify(other.body)).toBe(201);
    const before = await snapshot(s.id, s.bookings);
    const refused = await reschedule(s.id, {
      from_booking_uuid: s.bookings[0],
      reserved_on: "2032-02-03T13:00:00Z",
    });
    expect(refused.status, JSON.stringify(refused.body)).toBe(409);
    expect(refused.body.conflicts.map((c: { start: string }) => c.start)).toEqual([
      "2032-02-10T13:00:00Z",
    ]);
    expect(await snapshot(s.id, s.bookings)).toEqual(before);

    const moved = await reschedule(s.id, {
      from_booking_uuid: s.bookings[0],
      reserved_on: "2032-02-03T11:00:00Z",
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    for (const [i, b] of moved.body.bookings.entries()) {
      expect(b.ordered_services[0].resource_uuids).toEqual([room.uuid]);
      const start = Date.parse(starts[i] ?? "") + 2 * 3_600_000;
      // Its staffer's entry and the room unit's, both at the new time.
      const entries = await everyShard
        .prepare("select starts_at from calendar_entries where source_id = ? order by resource_id")
        .bind(b.uuid)
        .all<{ starts_at: number }>();
      expect(entries.results.map((e) => e.starts_at)).toEqual([start, start]);
    }
    // As stored: a fresh read shows what the answer showed.
    for (const b of moved.body.bookings) {
      const read = await salon.ws.api(`/bookings/${b.uuid}`);
      expect(read.body.ordered_services).toEqual(b.ordered_services);
      expect(read.body.start_time).toBe(b.start_time);
    }
    await expectInSync(salon.ws.id, staff);
    await expectUnitsInSync(salon.ws.id, [{ uuid: room.uuid, quantity: 1 }]);
  });
});

describe("who may change a series", () => {
  it("another workspace's series, or an unknown one, is 404; a publishable key is 403", async () => {
    const s = await seedSeries(salon, { starts: weekly("2031-12-02T09:00:00Z", 2) });
    const stranger = await createWorkspace();
    for (const act of [cancel, reschedule]) {
      const body = { from_booking_uuid: s.bookings[0], reserved_on: "2031-12-02T10:00:00Z" };
      const foreign = await act(s.id, act === cancel ? {} : body, stranger.api);
      expect(foreign.status).toBe(404);
      const unknown = await act(crypto.randomUUID(), act === cancel ? {} : body);
      expect(unknown.status).toBe(404);
    }
    const pk = await createPublishableKey(salon.ws);
    const publicCancel = await cancel(s.id, {}, pk.api);
    expect(publicCancel.status).toBe(403);
    expect(publicCancel.body.code).toBe("forbidden");
    expect(await bookingRow(s.bookings[0] ?? "")).toMatchObject({ is_canceled: 0, version: 0 });
  });
});

describe("the OpenAPI document", () => {
  it("documents both series changes: secret keys, their 404, 409 and 422, and `conflicts`", async () => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const doc = (await send<any>(`${PUBLIC}/openapi.json`)).body;
    for (const [action, codes] of [
      ["cancel", ["booking_changed", "conflict"]],
      [
        "reschedule",
        [
          "slot_unavailable",
          "booking_closed",
          "booking_changed",
          "package_unavailable",
          "conflict",
        ],
      ],
    ] as const) {
      const op = doc.paths[`/series/{series_uuid}/${action}`]?.put;
      expect(op?.responses["404"]?.description).toBe("No such series in this workspace");
      expect(op?.responses["409"]?.description).toContain(
        `Codes: ${codes.map((c) => `\`${c}\``).join(", ")}.`,
      );
      expect(op?.responses["422"]?.description).toContain("`request_too_large`");
      expect(op?.responses["403"]).toBeDefined();
    }
    expect(doc.components.schemas.Error.properties.conflicts.maxItems).toBe(52);
  });
});
