import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { countedCall } from "../helpers/counted-d1";
import { admin } from "../helpers/http";
import { until } from "../helpers/messages";
import { at, createSalon, customer, type Salon } from "../helpers/salon";
import { cancel, fullDay, joined, offered, WAIT_DAY } from "../helpers/waitlist";
import { everyShard } from "../helpers/every-shard";

/**
 * One after-write hook dispatches what a write said it produced (events,
 * messages, freed time) once it answered; nothing reads D1 afterwards to
 * find out, so a write that produced nothing costs no statement after its
 * answer.
 */

let salon: Salon;
beforeAll(async () => {
  salon = await createSalon();
  const settings = await admin(`/workspaces/${salon.ws.id}/notification-settings`, {
    method: "PUT",
    body: {
      email: { enabled: true, from_name: "Salon", from_email: "hello@salon.example" },
      sms: { enabled: false },
      reminders: [{ channel: "email", minutes_before: 1440 }],
      templates: {},
    },
  });
  expect(settings.status, JSON.stringify(settings.body)).toBe(200);
});

const call = (path: string, method: string, body?: unknown) =>
  countedCall(path, { method, body, workspaceId: salon.ws.id, apiKey: salon.ws.apiKey });

let day = 0;
/** A Monday of its own per call (from 2031-03-03), so tests never share calendar time. */
const nextMonday = () => {
  day += 1;
  return new Date(Date.UTC(2031, 2, 3) + day * 7 * 86_400_000).toISOString().slice(0, 10);
};

const rowOf = <T>(sql: string, ...values: unknown[]) =>
  everyShard
    .prepare(sql)
    .bind(...values)
    .first<T>();

describe("after a write", () => {
  it("a hold that produced nothing runs no statement after its answer", async () => {
    const res = await call("/reservations", "POST", {
      location_uuid: salon.location.uuid,
      items: [
        { datetime_start: at("09:00", nextMonday()), services: [{ service_uuid: salon.cut.uuid }] },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.answered).toBeGreaterThan(0);
    expect(res.total - res.answered).toBe(0);
  });

  it("a booking's event reaches the webhook queue, its confirmation is sent and its reminder set on the clock", async () => {
    const res = await call("/bookings", "POST", {
      location_uuid: salon.location.uuid,
      service_uuid: salon.cut.uuid,
      staffer_uuid: salon.staffers[0]?.uuid,
      reserved_on: at("10:00", nextMonday()),
      ...customer("+49 151 77000001"),
      customer_email: "ada@example.com",
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = (res.body as { uuid: string }).uuid;
    // Claim and mark of its outbox events: the only statements after the answer.
    expect(res.total - res.answered).toBe(2);
    const event = await rowOf<{ dispatched_at: number | null }>(
      "select dispatched_at from events where workspace_id = ? and type = 'booking-created' and payload like ?",
      salon.ws.id,
      `%${id}%`,
    );
    expect(event?.dispatched_at).not.toBeNull();
    const confirmation = await until(async () => {
      const row = await rowOf<{ status: string }>(
        "select status from messages where booking_id = ? and kind = 'booking-confirmation'",
        id,
      );
      return row?.status === "sent" && row;
    });
    expect(confirmation).toMatchObject({ status: "sent" });
    const reminder = await rowOf<{ scheduled_for: number; status: string }>(
      "select scheduled_for, status from messages where booking_id = ? and kind = 'booking-reminder'",
      id,
    );
    expect(reminder?.status).toBe("scheduled");
    const alarm = await runInDurableObject(
      env.MESSAGE_CLOCKS.getByName(salon.ws.id),
      (_instance, state) => state.storage.getAlarm(),
    );
    expect(alarm).not.toBeNull();
    expect(alarm).toBeLessThanOrEqual(reminder?.scheduled_for ?? 0);
  });

  it("a cancel that frees time someone waits for wakes the location's desk, which offers it", async () => {
    const booked = await fullDay(salon, WAIT_DAY, 2, "10:00");
    const entry = await joined(salon, salon.ws.api, { staffer_uuid: salon.staffers[2]?.uuid });
    await cancel(salon, booked);
    // Nobody runs the desk here: the cancel's freed time woke it.
    const body = await offered(salon, entry);
    expect(body).toMatchObject({ status: "offered" });
  });

  it("a refused write dispatches nothing", async () => {
    const res = await call("/reservations", "POST", { location_uuid: salon.location.uuid });
    expect(res.status).toBe(422);
    expect(res.total - res.answered).toBe(0);
  });
});
