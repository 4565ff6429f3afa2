import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { failpoints } from "../../src/platform/failpoints";
import { countedCall } from "../helpers/counted-d1";
import { admin } from "../helpers/http";
import { at, createSalon, customer, type Salon } from "../helpers/salon";
import { seedSeries } from "../helpers/series";
import { everyShard } from "../helpers/every-shard";

/**
 * What a write produced reaches the after-write hook even where the write's
 * answer does not say it: a batch that committed but whose answer was lost
 * (`d1.batch.committed`, settled against D1 by the calendar client), and
 * reminders moved earlier by a reschedule (an UPDATE, not an insert), whose
 * workspace clock must be brought forward. Before, both waited for the cron
 * sweep (a minute and more).
 */

/** A salon that e-mails its customers and reminds them a day before. */
async function remindingSalon(): Promise<Salon> {
  const made = await createSalon();
  const settings = await admin(`/workspaces/${made.ws.id}/notification-settings`, {
    method: "PUT",
    body: {
      email: { enabled: true, from_name: "Salon", from_email: "hello@salon.example" },
      sms: { enabled: false },
      reminders: [{ channel: "email", minutes_before: 1440 }],
      templates: {},
    },
  });
  expect(settings.status, JSON.stringify(settings.body)).toBe(200);
  return made;
}

/** When the workspace's message clock rings next. */
const clockOf = (workspaceId: string) =>
  runInDurableObject(env.MESSAGE_CLOCKS.getByName(workspaceId), (_instance, state) =>
    state.storage.getAlarm(),
  );

let salon: Salon;
beforeAll(async () => {
  salon = await remindingSalon();
});
afterEach(() => failpoints.disarmAll());

const book = (phone: string, day: string) =>
  countedCall("/bookings", {
    method: "POST",
    body: {
      location_uuid: salon.location.uuid,
      service_uuid: salon.cut.uuid,
      staffer_uuid: salon.staffers[0]?.uuid,
      reserved_on: at("10:00", day),
      ...customer(phone),
    },
    workspaceId: salon.ws.id,
    apiKey: salon.ws.apiKey,
  });

const eventOf = (bookingId: string) =>
  everyShard
    .prepare(
      "select claimed_at, dispatched_at from events where workspace_id = ? and type = 'booking-created' and payload like ?",
    )
    .bind(salon.ws.id, `%${bookingId}%`)
    .first<{ claimed_at: number | null; dispatched_at: number | null }>();

describe("after-write effects of a write settled as committed", () => {
  it("control: a booking heard of has its event handed to the queue by the hook", async () => {
    const res = await book("+49 151 77000098", "2032-03-08");
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const event = await eventOf((res.body as { uuid: string }).uuid);
    expect(event?.dispatched_at).not.toBeNull();
  });

  // Failed before the calendar client handed over a settled batch's effects (the event waited
  // for the cron sweep).
  it("a booking whose batch committed unheard still has its event handed to the queue", async () => {
    failpoints.arm("d1.batch.committed", (sql) => /insert into "bookings"/i.test(sql));
    const res = await book("+49 151 77000099", "2032-03-01");
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    // countedCall waited for the request's waitUntil work: the hook had its chance.
    const event = await eventOf((res.body as { uuid: string }).uuid);
    expect(event).not.toBeNull();
    expect(event?.dispatched_at).not.toBeNull();
  });

  // Failed before moved reminders said so (an unmarked UPDATE left the clock set for the old
  // time; the cron sweep sent the reminder a minute or two late).
  it("a reminder moved earlier by a reschedule brings the message clock forward", async () => {
    const made = await book("+49 151 77000097", "2031-09-01");
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const id = (made.body as { uuid: string }).uuid;
    const moved = await countedCall(`/bookings/${id}/reschedule`, {
      method: "PUT",
      body: { reserved_on: at("10:00", "2031-08-04") },
      workspaceId: salon.ws.id,
      apiKey: salon.ws.apiKey,
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const reminder = await everyShard
      .prepare(
        "select scheduled_for, status from messages where booking_id = ? and kind = 'booking-reminder'",
      )
      .bind(id)
      .first<{ scheduled_for: number; status: string }>();
    expect(reminder?.status).toBe("scheduled");
    const alarm = await runInDurableObject(
      env.MESSAGE_CLOCKS.getByName(salon.ws.id),
      (_instance, state) => state.storage.getAlarm(),
    );
    expect(alarm).not.toBeNull();
    expect(alarm).toBeLessThanOrEqual(reminder?.scheduled_for ?? 0);
  });
  it("reminders moved earlier by a series reschedule bring the message clock forward", async () => {
    // A workspace of its own: the clock rings for the earliest reminder of all its bookings.
    const own = await remindingSalon();
    const s = await seedSeries(own, {
      starts: ["2031-10-07T08:00:00Z", "2031-10-14T08:00:00Z", "2031-10-21T08:00:00Z"],
    });
    // Set after the answer (waitUntil): for the first reminder, a day before the first visit.
    await expect.poll(() => clockOf(own.ws.id)).toBe(Date.parse("2031-10-06T08:00:00Z"));
    // Every occurrence a day earlier (Mondays): the first reminder now falls on 5 October.
    const moved = await own.ws.api(`/series/${s.id}/reschedule`, {
      method: "PUT",
      body: { from_booking_uuid: s.bookings[0], reserved_on: "2031-10-06T08:00:00Z" },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    await expect.poll(() => clockOf(own.ws.id)).toBe(Date.parse("2031-10-05T08:00:00Z"));
  });
});
