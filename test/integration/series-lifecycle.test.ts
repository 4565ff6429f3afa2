import { beforeAll, describe, expect, it } from "vitest";
import { localDate, localTime } from "../../src/messages/rules";
import { expectInSync } from "../helpers/calendar";
import { admin } from "../helpers/http";
import { createSalon, customer, type Salon } from "../helpers/salon";
import { weeklyLocal } from "../helpers/series";
import { everyShard } from "../helpers/every-shard";

/**
 * A series' whole life through HTTP, as a client lives it: made with
 * POST /bookings/series on both sides of a DST change, read, rescheduled from
 * its second occurrence, read, canceled from its third, read. After each
 * write the customer has ONE message per channel naming every date it
 * touched (and no other), and the webhook outbox one event per occurrence,
 * each with the series' uuid.
 */
let salon: Salon;
const ZONE = "Europe/Berlin";
beforeAll(async () => {
  salon = await createSalon(1);
  const settings = await admin(`/workspaces/${salon.ws.id}/notification-settings`, {
    method: "PUT",
    body: {
      email: { enabled: true, from_name: "Salon", from_email: "hello@salon.example" },
      sms: { enabled: true },
      reminders: [{ channel: "email", minutes_before: 1440 }],
      templates: {},
    },
  });
  expect(settings.status, JSON.stringify(settings.body)).toBe(200);
});

interface Booking {
  uuid: string;
  start_time: string;
  is_canceled: boolean;
  series_uuid: string | null;
  customer_uuid: string;
}
interface Message {
  kind: string;
  channel: string;
  body: string;
  subject: string | null;
  booking_uuid: string;
}

const iso = (s: string) => s.replace(".000Z", "Z");
const line = (start: string) =>
  `${localDate(Date.parse(start), ZONE, "en")}, ${localTime(Date.parse(start), ZONE, "en")}`;

/** The customer's messages of one kind, by channel. */
async function told(customerId: string, kind: string): Promise<Map<string, Message[]>> {
  const res = await salon.ws.api(`/messages?per_page=100&customer_uuid=${customerId}&kind=${kind}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const by = new Map<string, Message[]>();
  for (const m of res.body.data as Message[]) by.set(m.channel, [...(by.get(m.channel) ?? []), m]);
  return by;
}

/** One message per channel; its e-mail names exactly `dates` of `all`. */
async function expectSummary(customerId: string, kind: string, dates: string[], all: string[]) {
  const by = await told(customerId, kind);
  expect([...by.keys()].sort(), kind).toEqual(["email", "sms"]);
  for (const [channel, list] of by) expect(list, `${kind} ${channel}`).toHaveLength(1);
  const email = by.get("email")?.[0]?.body ?? "";
  for (const start of all)
    if (dates.includes(start)) expect(email, `${kind}: ${line(start)}`).toContain(line(start));
    else expect(email, `${kind}: not ${line(start)}`).not.toContain(line(start));
  // The SMS (160 characters) names the first date it is about.
  const sms = by.get("sms")?.[0]?.body ?? "";
  expect(sms).toContain(localDate(Date.parse(dates[0] ?? ""), ZONE, "en"));
}

/** The outbox's events of one type for these bookings: one each, each with the series' uuid. */
async function expectEvents(type: string, bookings: string[], seriesId: string) {
  const rows = await everyShard
    .prepare(
      "select json_extract(payload, '$.uuid') as uuid, json_extract(payload, '$.series_uuid') as series_uuid from events where workspace_id = ? and type = ?",
    )
    .bind(salon.ws.id, type)
    .all<{ uuid: string; series_uuid: string | null }>();
  expect(rows.results.map((r) => r.uuid).sort(), type).toEqual([...bookings].sort());
  for (const r of rows.results) expect(r.series_uuid, type).toBe(seriesId);
}

describe("a series from POST /bookings/series to its cancel", () => {
  it("is made, read, rescheduled across DST, read, canceled from an occurrence, read", async () => {
    // Tuesdays at 10:00 Berlin: CET until Sunday 2032-03-28, CEST after.
    const made = weeklyLocal("2032-03-16", "10:00", 4).map(iso);
    const created = await salon.ws.api("/bookings/series", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        service_uuid: salon.cut.uuid,
        staffer_uuid: salon.staffers[0]?.uuid,
        reserved_on: made[0],
        recurrence: { rule: "FREQ=WEEKLY;COUNT=4" },
        on_conflict: "reject",
        ...customer("+49 151 74000001"),
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const seriesId: string = created.body.series.uuid;
    const ids = (created.body.bookings as Booking[]).map((b) => b.uuid);
    const customerId: string = created.body.series.customer_uuid;
    expect(created.body.series).toMatchObject({ count: 4, rule: "FREQ=WEEKLY;COUNT=4" });
    expect(created.body.skipped).toEqual([]);
    expect((created.body.bookings as Booking[]).map((b) => b.start_time)).toEqual(made);
    await expectSummary(customerId, "booking-confirmation", made, made);
    await expectEvents("booking-created", ids, seriesId);

    const read = async () => {
      const res = await salon.ws.api(`/series/${seriesId}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const bookings = res.body.bookings as Booking[];
      expect(bookings.map((b) => b.uuid)).toEqual(ids);
      for (const b of bookings) expect(b.series_uuid).toBe(seriesId);
      return bookings;
    };
    const first = await read();
    expect(first).toEqual(created.body.bookings);

    // The second occurrence, 10:00 → 11:30 local: it and every later one, on both sides of DST.
    const movedTo = weeklyLocal("2032-03-23", "11:30", 3).map(iso);
    const moved = await salon.ws.api(`/series/${seriesId}/reschedule`, {
      method: "PUT",
      body: {
        from_booking_uuid: ids[1],
        reserved_on: movedTo[0],
        is_send_notification_on_reschedule: true,
      },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const afterMove = [made[0] ?? "", ...movedTo];
    expect((moved.body.bookings as Booking[]).map((b) => b.start_time)).toEqual(afterMove);
    // 11:30 CET is 10:30Z, 11:30 CEST 09:30Z.
    expect(movedTo).toEqual([
      "2032-03-23T10:30:00Z",
      "2032-03-30T09:30:00Z",
      "2032-04-06T09:30:00Z",
    ]);
    const second = await read();
    expect(second).toEqual(moved.body.bookings);
    await expectSummary(customerId, "booking-rescheduled", movedTo, [...made, ...movedTo]);
    await expectEvents("booking-rescheduled", ids.slice(1), seriesId);

    // Canceled from the third occurrence on: the first two stay.
    const canceled = await salon.ws.api(`/series/${seriesId}/cancel`, {
      method: "PUT",
      body: { from_booking_uuid: ids[2], cancel_reason: "postponed" },
    });
    expect(canceled.status, JSON.stringify(canceled.body)).toBe(200);
    const third = await read();
    expect(third).toEqual(canceled.body.bookings);
    expect(third.map((b) => b.is_canceled)).toEqual([false, false, true, true]);
    expect(third.map((b) => b.start_time)).toEqual(afterMove);
    await expectSummary(customerId, "booking-canceled", movedTo.slice(1), afterMove);
    await expectEvents("booking-canceled", ids.slice(2), seriesId);
    await expectInSync(salon.ws.id, [salon.staffers[0]?.uuid ?? ""]);
  });
});
