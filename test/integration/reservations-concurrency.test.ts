import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { calendarFor } from "../../src/calendar/client";
import { expectInSync, liveIntervals, overlaps } from "../helpers/calendar";
import { at, createSalon, customer, type Salon } from "../helpers/salon";
import { everyShard } from "../helpers/every-shard";

let salon: Salon;
let staffIds: string[];
beforeAll(async () => {
  salon = await createSalon(3);
  staffIds = salon.staffers.map((s) => s.uuid);
});

interface Held {
  uuid: string;
  items: { datetime_start: string; services: { staffer_uuid: string }[] }[];
}

const reserve = (start: string) =>
  salon.ws.api("/reservations", {
    method: "POST",
    body: {
      location_uuid: salon.location.uuid,
      items: [{ datetime_start: start, services: [{ service_uuid: salon.cut.uuid }] }],
    },
  });

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

/** Live held intervals per staffer in D1 (bookings' and reservations' together must not overlap). */
async function liveBusy(workspaceId: string) {
  const res = await everyShard
    .prepare(
      `select source_id as booking_id, staffer_id, starts_at, ends_at from calendar_entries
      where workspace_id = ? and kind in ('booking', 'held') and (expires_at is null or expires_at > ?)`,
    )
    .bind(workspaceId, Date.now())
    .all<{ booking_id: string; staffer_id: string; starts_at: number; ends_at: number }>();
  return res.results;
}

/** Every listed reservation one second past its expiry, in D1 and in its calendars, alarms run. */
async function expireAll(held: Held[]) {
  const past = Date.now() - 1_000;
  for (const r of held) {
    await everyShard.batch([
      everyShard.prepare("update reservations set expires_at = ? where id = ?").bind(past, r.uuid),
      everyShard
        .prepare("update calendar_entries set expires_at = ? where source_id = ?")
        .bind(past, r.uuid),
    ]);
  }
  for (const stafferId of staffIds) {
    const stub = calendarFor(env, salon.ws.id, stafferId);
    await runInDurableObject(stub, async (_instance, state) => {
      for (const r of held) {
        state.storage.sql.exec(
          "UPDATE entries SET expires_ms = ? WHERE source_id = ?",
          past,
          r.uuid,
        );
      }
      await state.storage.setAlarm(Date.now());
    });
    await runDurableObjectAlarm(stub);
  }
}

describe("reservations under concurrency", () => {
  it("overlapping holds at once, then bookings and expiry: no overlap, calendars in sync, expired time bookable", async () => {
    const date = "2030-05-06";
    const starts = Array.from({ length: 8 }, (_, k) =>
      at(
        `${String(9 + Math.floor(k / 4)).padStart(2, "0")}:${String((k % 4) * 15).padStart(2, "0")}`,
        date,
      ),
    );
    // 24 clients, three on each start, all at once, staffers auto-allocated.
    const attempts = await Promise.all(starts.flatMap((s) => [reserve(s), reserve(s), reserve(s)]));
    for (const r of attempts) {
      expect([201, 409], JSON.stringify(r.body)).toContain(r.status);
      if (r.status === 409) expect(r.body.code).toBe("slot_unavailable");
    }
    const held = attempts.filter((r) => r.status === 201).map((r) => r.body as Held);
    expect(held.length).toBeGreaterThanOrEqual(3);
    expect(overlaps(await liveBusy(salon.ws.id))).toEqual([]);
    await expectInSync(salon.ws.id, staffIds);

    // Half are booked by their holders while third clients try the same starts without one.
    const toBook = held.filter((_, i) => i % 2 === 0);
    const toExpire = held.filter((_, i) => i % 2 === 1);
    const [used, third] = await Promise.all([
      Promise.all(
        toBook.map((r) => book(r.items[0]?.datetime_start ?? "", { reservation_uuid: r.uuid })),
      ),
      Promise.all(held.map((r) => book(r.items[0]?.datetime_start ?? ""))),
    ]);
    // A holder always gets its time; a third client never gets held time.
    for (const r of used) expect(r.status, JSON.stringify(r.body)).toBe(201);
    for (const r of third) expect([201, 409], JSON.stringify(r.body)).toContain(r.status);
    expect(overlaps(await liveBusy(salon.ws.id))).toEqual([]);
    expect(overlaps(await liveIntervals(salon.ws.id))).toEqual([]);
    await expectInSync(salon.ws.id, staffIds);

    // The rest expire; their time is free again, each for its own staffer.
    await expireAll(toExpire);
    await expectInSync(salon.ws.id, staffIds);
    for (const r of toExpire) {
      const item = r.items[0];
      const res = await book(item?.datetime_start ?? "", {
        staffer_uuid: item?.services[0]?.staffer_uuid,
      });
      // The third clients never got held time, so every expired hold is free for its staffer.
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    expect(overlaps(await liveIntervals(salon.ws.id))).toEqual([]);
    await expectInSync(salon.ws.id, staffIds);
  });

  it("one reservation used twice at once: one booking, the other 409 reservation_expired", async () => {
    for (let round = 0; round < 3; round++) {
      const start = at(`${String(9 + round * 2).padStart(2, "0")}:00`, "2030-05-07");
      const res = await reserve(start);
      expect(res.status).toBe(201);
      const [a, b] = await Promise.all([
        book(start, { reservation_uuid: res.body.uuid }),
        book(start, { reservation_uuid: res.body.uuid }),
      ]);
      expect([a.status, b.status].sort()).toEqual([201, 409]);
      expect([a, b].find((r) => r.status === 409)?.body.code).toBe("reservation_expired");
    }
    expect(overlaps(await liveIntervals(salon.ws.id))).toEqual([]);
    await expectInSync(salon.ws.id, staffIds);
  });

  it("DELETE and a booking of the same reservation at once: exactly one of them wins", async () => {
    for (let round = 0; round < 3; round++) {
      const start = at(`${String(9 + round * 2).padStart(2, "0")}:00`, "2030-05-08");
      const res = await reserve(start);
      expect(res.status).toBe(201);
      const [booked, deleted] = await Promise.all([
        book(start, { reservation_uuid: res.body.uuid }),
        salon.ws.api(`/reservations/${res.body.uuid}`, { method: "DELETE" }),
      ]);
      expect(
        [
          [201, 404],
          [409, 204],
        ],
        `${booked.status} ${deleted.status}`,
      ).toContainEqual([booked.status, deleted.status]);
    }
    await expectInSync(salon.ws.id, staffIds);
  });
});
