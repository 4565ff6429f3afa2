import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { unitCalendarId } from "../../src/calendar/ids";
import { failpoints } from "../../src/lib/failpoints";
import { expectInSync, expectUnitsInSync, expireHolds, unitOverlaps } from "../helpers/calendar";
import { admin, type Received } from "../helpers/http";
import { createResource, type TestResource } from "../helpers/resources";
import { at, createSalon, customer, type Salon } from "../helpers/salon";

/**
 * The failures of bookings-faults.test.ts, injected into writes that take a
 * room: after the D1 batch commits but before the Worker hears of it, a lost
 * confirm, both at once, and a batch that certainly failed. The room's unit
 * calendar is claimed, settled and released with the staffers': no second
 * booking ever gets the room, and once the alarms ran it equals D1.
 */
let salon: Salon;
let staff: string[];
let room: TestResource;
let massage: { uuid: string };

beforeAll(async () => {
  salon = await createSalon(3);
  staff = salon.staffers.map((s) => s.uuid);
  room = await createResource(salon.ws, salon.location.uuid, { name: "Room", kind: "room" });
  const res = await salon.ws.api("/services", {
    method: "POST",
    body: { name: "Massage", duration: 60, price: 6000, resource_uuids: [room.uuid] },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  massage = res.body;
});
afterEach(() => failpoints.disarmAll());

let dayIndex = 0;
function nextDate() {
  dayIndex += 1;
  const week = Math.floor((dayIndex - 1) / 5);
  return new Date(Date.UTC(2032, 6, 5) + (week * 7 + ((dayIndex - 1) % 5)) * 86_400_000)
    .toISOString()
    .slice(0, 10);
}

interface Ctx {
  date: string;
  booking?: string;
}

const book = (date: string, hhmm: string, stafferId: string, serviceId = massage.uuid) =>
  salon.ws.api("/bookings", {
    method: "POST",
    body: {
      location_uuid: salon.location.uuid,
      service_uuid: serviceId,
      staffer_uuid: stafferId,
      reserved_on: at(hhmm, date),
      ...customer("+49 151 61000000"),
    },
  });

const count = async (sql: string, ...binds: unknown[]) =>
  (
    await env.DB.prepare(sql)
      .bind(...binds)
      .first<{ n: number }>()
  )?.n ?? 0;

interface WritePath {
  name: string;
  /** Creates a room booking at 10:00 with the first staffer to act on. */
  setup: boolean;
  act: (ctx: Ctx) => Promise<Received>;
  status: number;
  /** The room is busy at this time after the write (another staffer is refused), or null. */
  busy: string | null;
  /** The write frees the room at this time. */
  frees?: string;
  written: (ctx: Ctx) => Promise<boolean>;
}

const PATHS: WritePath[] = [
  {
    name: "create",
    setup: false,
    act: (ctx) => book(ctx.date, "10:00", staff[0] ?? ""),
    status: 201,
    busy: "10:00",
    written: async (ctx) =>
      (await count(
        "select count(*) as n from calendar_entries where resource_id = ? and starts_at = ?",
        room.uuid,
        Date.parse(at("10:00", ctx.date)),
      )) === 1,
  },
  {
    name: "reschedule",
    setup: true,
    act: (ctx) =>
      salon.ws.api(`/bookings/${ctx.booking}/reschedule`, {
        method: "PUT",
        body: { reserved_on: at("12:00", ctx.date) },
      }),
    status: 200,
    busy: "12:00",
    frees: "10:00",
    written: async (ctx) =>
      (await count(
        "select count(*) as n from calendar_entries where resource_id = ? and source_id = ? and starts_at = ?",
        room.uuid,
        ctx.booking,
        Date.parse(at("12:00", ctx.date)),
      )) === 1,
  },
  {
    name: "cancel",
    setup: true,
    act: (ctx) =>
      salon.ws.api(`/bookings/${ctx.booking}/status/cancel`, { method: "PUT", body: {} }),
    status: 200,
    busy: null,
    frees: "10:00",
    written: async (ctx) =>
      (await count(
        "select count(*) as n from bookings where id = ? and is_canceled = 1",
        ctx.booking,
      )) === 1,
  },
  {
    name: "room blocked",
    setup: false,
    act: (ctx) =>
      admin(`/workspaces/${salon.ws.id}/resources/${room.uuid}/blocked-spots`, {
        method: "POST",
        body: { starts_at: at("13:00", ctx.date), ends_at: at("14:00", ctx.date) },
      }),
    status: 201,
    busy: "13:00",
    written: async (ctx) =>
      (await count(
        "select count(*) as n from resource_blocks where resource_id = ? and starts_at = ?",
        room.uuid,
        Date.parse(at("13:00", ctx.date)),
      )) === 1,
  },
];

async function prepare(path: WritePath): Promise<Ctx> {
  const ctx: Ctx = { date: nextDate() };
  if (path.setup) {
    const res = await book(ctx.date, "10:00", staff[0] ?? "");
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    ctx.booking = res.body.uuid;
    await expectUnitsInSync(salon.ws.id, [room]);
  }
  return ctx;
}

/** Another staffer asks for the room at that time: refused while it is busy, booked once free. */
const probe = async (ctx: Ctx, hhmm: string) => (await book(ctx.date, hhmm, staff[2] ?? "")).status;

const calendars = () => [...staff, unitCalendarId(room.uuid, 1)];

async function settled(ctx: Ctx, path: WritePath) {
  await expireHolds(salon.ws.id, calendars());
  await expectInSync(salon.ws.id, staff);
  await expectUnitsInSync(salon.ws.id, [room]);
  if (path.busy) expect(await probe(ctx, path.busy)).toBe(409);
  if (path.frees) expect(await probe(ctx, path.frees)).toBe(201);
  expect(await unitOverlaps(salon.ws.id)).toEqual([]);
}

/** Only the batch of a calendar write carries the fence guard. */
const calendarBatch = (sql: string) => sql.includes("hold_fences");

describe.each(PATHS)("$name", (path) => {
  it("commits, but the Worker never hears of it: settles at once and answers success", async () => {
    const ctx = await prepare(path);
    failpoints.arm("d1.batch.committed", calendarBatch);
    const res = await path.act(ctx);
    expect(res.status, JSON.stringify(res.body)).toBe(path.status);
    expect(await path.written(ctx)).toBe(true);
    await expectUnitsInSync(salon.ws.id, [room]);
    if (path.busy) expect(await probe(ctx, path.busy)).toBe(409);
    if (path.frees) expect(await probe(ctx, path.frees)).toBe(201);
  });

  it("loses the confirm: the room stays busy until the alarm settles it", async () => {
    const ctx = await prepare(path);
    failpoints.arm("calendar.confirm", () => true, 10);
    const res = await path.act(ctx);
    expect(res.status, JSON.stringify(res.body)).toBe(path.status);
    expect(await path.written(ctx)).toBe(true);
    if (path.busy) expect(await probe(ctx, path.busy)).toBe(409);
    if (path.frees) expect(await probe(ctx, path.frees)).toBe(409);
    await settled(ctx, path);
  });

  it("commits, and both the answer and the settlement are lost: 500, no double booking, the alarm settles", async () => {
    const ctx = await prepare(path);
    failpoints.arm("d1.batch.committed", calendarBatch);
    failpoints.arm("calendar.settle", () => true, 10);
    const res = await path.act(ctx);
    expect(res.status).toBe(500);
    expect(await path.written(ctx)).toBe(true);
    if (path.busy) expect(await probe(ctx, path.busy)).toBe(409);
    if (path.frees) expect(await probe(ctx, path.frees)).toBe(409);
    await settled(ctx, path);
  });

  it("fails for certain inside the batch: nothing written, the room's hold released at once", async () => {
    const ctx = await prepare(path);
    const table = path.name === "room blocked" ? "calendar_entries" : "events";
    await env.DB.exec(
      `CREATE TRIGGER fault_r_${table} BEFORE INSERT ON ${table} BEGIN SELECT RAISE(ABORT, 'injected'); END`,
    );
    let res: Received;
    try {
      res = await path.act(ctx);
    } finally {
      await env.DB.exec(`DROP TRIGGER fault_r_${table}`);
    }
    expect(res.status).toBe(500);
    expect(await path.written(ctx)).toBe(false);
    await expectUnitsInSync(salon.ws.id, [room]);
    await expectInSync(salon.ws.id, staff);
    if (path.busy) expect(await probe(ctx, path.busy)).toBe(201);
    if (ctx.booking) expect(await probe(ctx, "10:00")).toBe(409);
  });
});
