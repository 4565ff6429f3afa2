import { beforeAll, describe, expect, it } from "vitest";
import { expectInSync } from "../helpers/calendar";
import { d1RoundTrips } from "../helpers/http";
import { at, createSalon, customer, type Salon } from "../helpers/salon";

/** One staffer, so every alternative is hers and the expected list is exact. */
let salon: Salon;
let staffer: string;
beforeAll(async () => {
  salon = await createSalon(1);
  staffer = salon.staffers[0]?.uuid ?? "";
});

interface Alternative {
  start: string;
  staffer_uuid: string;
}

const book = (start: string, extra: Record<string, unknown> = {}) =>
  salon.ws.api("/bookings", {
    method: "POST",
    body: {
      location_uuid: salon.location.uuid,
      service_uuid: salon.cut.uuid,
      reserved_on: start,
      ...customer(),
      ...extra,
    },
  });

const cancel = (uuid: string) =>
  salon.ws.api(`/bookings/${uuid}/status/cancel`, { method: "PUT", body: {} });

/** At most 5, the requested start's own local date first, then nearest (ties: earlier) first. */
function expectOrdered(alternatives: Alternative[], requested: string) {
  expect(alternatives.length).toBeGreaterThan(0);
  expect(alternatives.length).toBeLessThanOrEqual(5);
  const day = (iso: string) => new Date(Date.parse(iso) + 3_600_000).toISOString().slice(0, 10);
  const key = (a: Alternative) => [
    day(a.start) === day(requested) ? 0 : 1,
    Math.abs(Date.parse(a.start) - Date.parse(requested)),
    Date.parse(a.start),
  ];
  const sorted = [...alternatives].sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
    return 0;
  });
  expect(alternatives).toEqual(sorted);
  expect(alternatives.map((a) => a.start)).not.toContain(requested);
}

/** 10:00–11:00 Berlin (09:00Z, cut and buffer) is taken on `date`. */
async function taken(date: string) {
  const res = await book(at("09:00", date), { staffer_uuid: staffer });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.uuid as string;
}

describe("409 slot_unavailable alternatives", () => {
  it("POST /bookings: the nearest free starts of the same service, each bookable", async () => {
    const date = "2030-03-04";
    await taken(date);
    const res = await book(at("09:00", date));
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("slot_unavailable");
    // Auth, the booking's read, and the one extra read for the alternatives.
    expect(d1RoundTrips(res.headers)).toBeLessThanOrEqual(3);
    const alternatives = res.body.alternatives as Alternative[];
    expectOrdered(alternatives, at("09:00", date));
    expect(alternatives).toEqual(
      ["08:00", "10:00", "10:15", "10:30", "10:45"].map((t) => ({
        start: at(t, date),
        staffer_uuid: staffer,
      })),
    );
    for (const a of alternatives) {
      const ok = await book(a.start, { staffer_uuid: a.staffer_uuid });
      expect(ok.status, `${a.start}: ${JSON.stringify(ok.body)}`).toBe(201);
      expect((await cancel(ok.body.uuid)).status).toBe(200);
    }
    await expectInSync(salon.ws.id, [staffer]);
  });

  it("POST /bookings/cart: starts where the whole item fits, each bookable", async () => {
    const date = "2030-03-05";
    await taken(date);
    const items = (start: string, stafferId?: string) => [
      {
        datetime_start: start,
        services: [
          { service_uuid: salon.cut.uuid, ...(stafferId ? { staffer_uuid: stafferId } : {}) },
          { service_uuid: salon.colour.uuid, ...(stafferId ? { staffer_uuid: stafferId } : {}) },
        ],
      },
    ];
    const cart = (start: string, stafferId?: string) =>
      salon.ws.api("/bookings/cart", {
        method: "POST",
        body: { location_uuid: salon.location.uuid, items: items(start, stafferId), ...customer() },
      });
    const res = await cart(at("08:30", date));
    expect(res.status).toBe(409);
    const alternatives = res.body.alternatives as Alternative[];
    expectOrdered(alternatives, at("08:30", date));
    // Cut (45 + 15) then colouring (90): 150 minutes that must clear 09:00Z–10:00Z.
    expect(alternatives.map((a) => a.start)).toEqual(
      ["10:00", "10:15", "10:30", "10:45", "11:00"].map((t) => at(t, date)),
    );
    for (const a of alternatives) {
      const ok = await cart(a.start, a.staffer_uuid);
      expect(ok.status, `${a.start}: ${JSON.stringify(ok.body)}`).toBe(201);
      expect((await cancel(ok.body.bookings[0].uuid)).status).toBe(200);
    }
    await expectInSync(salon.ws.id, [staffer]);
  });

  it("PUT /bookings/{uuid}/reschedule: starts where the booking fits with its staffer, its own time not in the way", async () => {
    const date = "2030-03-06";
    await taken(date);
    const mine = await book(at("12:00", date), { staffer_uuid: staffer });
    expect(mine.status).toBe(201);
    const move = (start: string) =>
      salon.ws.api(`/bookings/${mine.body.uuid}/reschedule`, {
        method: "PUT",
        body: { reserved_on: start },
      });
    const res = await move(at("09:30", date));
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    const alternatives = res.body.alternatives as Alternative[];
    expectOrdered(alternatives, at("09:30", date));
    expect(alternatives.map((a) => a.start)).toEqual(
      ["10:00", "10:15", "10:30", "10:45", "08:00"].map((t) => at(t, date)),
    );
    for (const a of alternatives) {
      expect(a.staffer_uuid).toBe(staffer);
      const ok = await move(a.start);
      expect(ok.status, `${a.start}: ${JSON.stringify(ok.body)}`).toBe(200);
    }
    await expectInSync(salon.ws.id, [staffer]);
  });

  it("POST /reservations: the nearest free starts, each of which can be held", async () => {
    const date = "2030-03-07";
    await taken(date);
    const reserve = (start: string, stafferId?: string) =>
      salon.ws.api("/reservations", {
        method: "POST",
        body: {
          location_uuid: salon.location.uuid,
          items: [
            {
              datetime_start: start,
              services: [
                { service_uuid: salon.cut.uuid, ...(stafferId ? { staffer_uuid: stafferId } : {}) },
              ],
            },
          ],
        },
      });
    const res = await reserve(at("09:15", date));
    expect(res.status).toBe(409);
    const alternatives = res.body.alternatives as Alternative[];
    expectOrdered(alternatives, at("09:15", date));
    expect(alternatives.map((a) => a.start)).toEqual(
      ["10:00", "10:15", "08:00", "10:30", "10:45"].map((t) => at(t, date)),
    );
    for (const a of alternatives) {
      const ok = await reserve(a.start, a.staffer_uuid);
      expect(ok.status, `${a.start}: ${JSON.stringify(ok.body)}`).toBe(201);
      const del = await salon.ws.api(`/reservations/${ok.body.uuid}`, { method: "DELETE" });
      expect(del.status).toBe(204);
    }
    await expectInSync(salon.ws.id, [staffer]);
  });

  it("a fully booked day offers other days, nearest first", async () => {
    const date = "2030-03-08";
    const blocked = await salon.ws.api(`/staffers/${staffer}/blocked-spots`, {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        starts_at: at("07:00", date),
        ends_at: at("18:00", date),
      },
    });
    expect(blocked.status).toBe(201);
    const res = await book(at("09:00", date));
    expect(res.status).toBe(409);
    const alternatives = res.body.alternatives as Alternative[];
    expectOrdered(alternatives, at("09:00", date));
    // Friday is gone: Thursday's afternoon is nearer than Monday's morning.
    expect(alternatives[0]?.start).toBe(at("16:00", "2030-03-07"));
  });
});
