import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { calendarFor } from "../../src/calendar/client";
import { expectInSync } from "../helpers/calendar";
import { rowCount } from "../helpers/db";
import { createWorkspace } from "../helpers/factory";
import { at, createSalon, customer, type Salon } from "../helpers/salon";

let salon: Salon;
beforeAll(async () => {
  salon = await createSalon(3);
});

const staffer = (i: number) => salon.staffers[i]?.uuid ?? "";

const reserve = (body: Record<string, unknown>, api = salon.ws.api) =>
  api("/reservations", { method: "POST", body: { location_uuid: salon.location.uuid, ...body } });

const one = (start: string, stafferId?: string, serviceId = salon.cut.uuid) => ({
  items: [
    {
      datetime_start: start,
      services: [{ service_uuid: serviceId, ...(stafferId ? { staffer_uuid: stafferId } : {}) }],
    },
  ],
});

const book = (start: string, extra: Record<string, unknown> = {}, api = salon.ws.api) =>
  api("/bookings", {
    method: "POST",
    body: {
      location_uuid: salon.location.uuid,
      service_uuid: salon.cut.uuid,
      reserved_on: start,
      ...customer(),
      ...extra,
    },
  });

const startsOf = async (date: string, stafferId: string) => {
  const res = await salon.ws.api(
    `/locations/${salon.location.uuid}/time-slots?service_uuid=${salon.cut.uuid}&staffer_uuid=${stafferId}&range_start=${date}&range_end=${date}`,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.dates[0]?.slots ?? []).map((s: { start: string }) => s.start) as string[];
};

/**
 * Ages a reservation past its expiry without any request touching it: D1 and
 * the calendar objects as they would be one second after `expires_at`. With
 * `alarm`, each calendar's alarm runs too (as it would at that instant).
 */
async function expire(reservationId: string, stafferIds: string[], alarm = false) {
  const past = Date.now() - 1_000;
  await env.DB.batch([
    env.DB.prepare("update reservations set expires_at = ? where id = ?").bind(past, reservationId),
    env.DB.prepare("update calendar_entries set expires_at = ? where source_id = ?").bind(
      past,
      reservationId,
    ),
  ]);
  for (const stafferId of stafferIds) {
    const stub = calendarFor(env, salon.ws.id, stafferId);
    await runInDurableObject(stub, async (_instance, state) => {
      state.storage.sql.exec(
        "UPDATE entries SET expires_ms = ? WHERE source_id = ?",
        past,
        reservationId,
      );
      if (alarm) await state.storage.setAlarm(Date.now());
    });
    if (alarm) await runDurableObjectAlarm(stub);
  }
}

const heldRowsInCalendar = async (stafferId: string, reservationId: string) =>
  runInDurableObject(
    calendarFor(env, salon.ws.id, stafferId),
    (_instance, state) =>
      state.storage.sql.exec("SELECT id FROM entries WHERE source_id = ?", reservationId).toArray()
        .length,
  );

describe("POST /reservations", () => {
  it("holds the time: hidden from search, 409 with alternatives for others, bookable by the holder", async () => {
    const date = "2030-03-11";
    const start = at("09:00", date);
    const res = await reserve({ ...one(start, staffer(0)), ttl_seconds: 300 });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const expiresIn = Date.parse(res.body.expires_at) - Date.now();
    expect(expiresIn).toBeGreaterThan(298_000);
    expect(expiresIn).toBeLessThanOrEqual(300_000);
    expect(res.body).toEqual({
      uuid: expect.any(String),
      location_uuid: salon.location.uuid,
      expires_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      items: [
        {
          datetime_start: start,
          services: [
            {
              service_uuid: salon.cut.uuid,
              staffer_uuid: staffer(0),
              starts_at: start,
              ends_at: at("09:45", date),
            },
          ],
        },
      ],
    });
    const reservation = res.body.uuid as string;

    // 09:00Z is 10:00 in Berlin: the staffer's starts overlapping 10:00–11:00 local (cut 45 +
    // buffer 15) are gone from another client's search.
    const starts = await startsOf(date, staffer(0));
    expect(starts).toContain("09:00");
    for (const gone of ["09:15", "10:00", "10:45"]) expect(starts).not.toContain(gone);
    expect(starts).toContain("11:00");

    const taken = await book(start, { staffer_uuid: staffer(0) });
    expect(taken.status, JSON.stringify(taken.body)).toBe(409);
    expect(taken.body.code).toBe("slot_unavailable");
    // Nearest first (ties: earlier first), the same staffer as asked.
    expect(taken.body.alternatives).toEqual(
      ["08:00", "10:00", "10:15", "10:30", "10:45"].map((t) => ({
        start: at(t, date),
        staffer_uuid: staffer(0),
      })),
    );

    // The holder books it: same time and staffer, the reservation is used up in the same write.
    const booked = await book(start, { reservation_uuid: reservation });
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    expect(booked.body.ordered_services[0]).toMatchObject({ staffer_uuid: staffer(0) });
    expect((await salon.ws.api(`/reservations/${reservation}`)).status).toBe(404);
    const again = await book(start, { reservation_uuid: reservation });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("reservation_expired");
    const rows = await env.DB.prepare("select kind from calendar_entries where source_id = ?")
      .bind(reservation)
      .all();
    expect(rows.results).toEqual([]);
    await expectInSync(salon.ws.id, [staffer(0)]);
  });
});
