import { beforeAll, describe, expect, it } from "vitest";
import { admin } from "../helpers/http";
import { createResource, type TestResource } from "../helpers/resources";
import { createSalon, MONDAY, type Salon } from "../helpers/salon";
import { shardOf } from "../helpers/every-shard";

/**
 * A slot search's D1 cost follows the window, not the calendars' history: a
 * staffer and a room with 2,000 past entries each, searched over 62 days,
 * read a few hundred rows (D1's own `rows_read`, from Server-Timing), while a
 * 3-week block that starts before the window still takes its days away.
 */
const HISTORY = 2_000;
const HOUR = 3_600_000;
/** The 62-day window: Monday 2030-03-04 to 2030-05-04 in Berlin. */
const LAST = "2030-05-04";
/** A 3-week block from a week before the window: its first two weeks are in the window. */
const BLOCK = { starts_at: "2030-02-25T00:00:00Z", ends_at: "2030-03-18T00:00:00Z" };

let salon: Salon;
let room: TestResource;
let facial: { uuid: string };

/**
 * `HISTORY` one-hour bookings of a calendar, one every 6 hours back from
 * 2030-03-01 (500 days), written as the app writes a booking's entry.
 */
async function seedHistory(owner: { stafferId?: string; resourceId?: string; unit?: number }) {
  // Written on the workspace's own shard: the other shards have no such location.
  const { db } = await shardOf(salon.ws.id);
  await db
    .prepare(
      `with recursive n(i) as (select 1 union all select i + 1 from n where i < ?1)
     insert into calendar_entries
       (id, workspace_id, staffer_id, resource_id, unit, location_id, kind, source_id, starts_at, ends_at)
     select lower(hex(randomblob(16))), ?2, ?3, ?4, ?5, ?6, 'booking', lower(hex(randomblob(16))),
       ?7 - i * ?8, ?7 - i * ?8 + ?9
     from n`,
    )
    .bind(
      HISTORY,
      salon.ws.id,
      owner.stafferId ?? null,
      owner.resourceId ?? null,
      owner.unit ?? null,
      salon.location.uuid,
      Date.parse("2030-03-01T00:00:00Z"),
      6 * HOUR,
      HOUR,
    )
    .run();
}

const rowsRead = (headers: Headers) => {
  const match = /d1-rows-read;desc="(\d+)"/.exec(headers.get("server-timing") ?? "");
  if (!match?.[1]) throw new Error(`no d1-rows-read in ${headers.get("server-timing")}`);
  return Number(match[1]);
};

/** Dates of the window (Berlin) with at least one free start. */
const openDates = (body: { dates: { date: string; slots: unknown[] }[] }) =>
  body.dates.filter((d) => d.slots.length > 0).map((d) => d.date);

beforeAll(async () => {
  salon = await createSalon(2);
  room = await createResource(salon.ws, salon.location.uuid, { kind: "room", quantity: 1 });
  const created = await salon.ws.api("/services", {
    method: "POST",
    body: { name: "Facial", duration: 60, price: 5000, resource_uuids: [room.uuid] },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  facial = created.body;
  const [a] = salon.staffers;
  await seedHistory({ stafferId: a?.uuid });
  await seedHistory({ resourceId: room.uuid, unit: 1 });
  // The long entries go through the API, as a salon would write them.
  const blocked = await salon.ws.api(`/staffers/${a?.uuid}/blocked-spots`, {
    method: "POST",
    body: { location_uuid: salon.location.uuid, ...BLOCK },
  });
  expect(blocked.status, JSON.stringify(blocked.body)).toBe(201);
  const closed = await admin(`/workspaces/${salon.ws.id}/resources/${room.uuid}/blocked-spots`, {
    method: "POST",
    body: { ...BLOCK, unit: 1 },
  });
  expect(closed.status, JSON.stringify(closed.body)).toBe(201);
});

describe("a 62-day search over calendars with 2,000 past entries", () => {
  it("reads the window's rows for a staffer, and still sees a block that began before it", async () => {
    const [a] = salon.staffers;
    const res = await salon.ws.api(
      `/locations/${salon.location.uuid}/time-slots?service_uuid=${salon.cut.uuid}&staffer_uuid=${a?.uuid}&range_start=${MONDAY}&range_end=${LAST}`,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.dates).toHaveLength(62);
    // Blocked from before the window until Monday 2030-03-18 00:00Z (01:00 in Berlin).
    const open = openDates(res.body);
    expect(open[0]).toBe("2030-03-18");
    expect(open).toHaveLength(35); // Mon–Fri from 03-18 to 05-03
    // The whole request: the window's entries, the 3 weeks of history the block's length looks
    // back over (84 entries), schedules, lookups. 121 when measured; 2,048 when history was read.
    expect(rowsRead(res.headers)).toBeLessThan(HISTORY / 5);
  });

  it("reads the window's rows for a resource unit, and still sees its block", async () => {
    const res = await salon.ws.api(
      `/locations/${salon.location.uuid}/time-slots?service_uuid=${facial.uuid}&range_start=${MONDAY}&range_end=${LAST}`,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const open = openDates(res.body);
    expect(open[0]).toBe("2030-03-18");
    expect(open).toHaveLength(35);
    // Both staffers' and the room's calendars: 212 when measured; 4,064 when history was read.
    expect(rowsRead(res.headers)).toBeLessThan(HISTORY / 5);
  });

  it("the cart calendar reads the same way", async () => {
    const res = await salon.ws.api(`/locations/${salon.location.uuid}/time-slots/cart`, {
      method: "POST",
      body: {
        services: [
          { service_uuid: salon.cut.uuid, staffer_uuid: salon.staffers[0]?.uuid },
          { service_uuid: facial.uuid },
        ],
        range_start: MONDAY,
        range_end: LAST,
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data[0].dates[0].date).toBe("2030-03-18");
    // 230 when measured; 4,080 when history was read.
    expect(rowsRead(res.headers)).toBeLessThan(HISTORY / 5);
  });
});
