import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { failpoints } from "../../src/lib/failpoints";
import { entriesOf, expectInSync, expireHolds } from "../helpers/calendar";
import type { Received } from "../helpers/http";
import { at, createSalon, customer, type Salon } from "../helpers/salon";

/**
 * A failure injected between every two steps of every calendar write: after
 * the D1 batch commits but before the Worker hears of it, a lost confirm,
 * both at once, and a batch that certainly failed. No double booking in any
 * case, and once the alarm ran, every calendar equals D1.
 */
let salon: Salon;
let staff: string[];
beforeAll(async () => {
  salon = await createSalon(3);
  staff = salon.staffers.map((s) => s.uuid);
});
afterEach(() => failpoints.disarmAll());

let dayIndex = 0;
function nextDate() {
  dayIndex += 1;
  const week = Math.floor((dayIndex - 1) / 5);
  return new Date(Date.UTC(2032, 0, 5) + (week * 7 + ((dayIndex - 1) % 5)) * 86_400_000)
    .toISOString()
    .slice(0, 10);
}

interface Ctx {
  date: string;
  booking?: string;
}

const book = (date: string, hhmm: string, stafferId: string, phone = "+49 151 60000000") =>
  salon.ws.api("/bookings", {
    method: "POST",
    body: {
      location_uuid: salon.location.uuid,
      service_uuid: salon.cut.uuid,
      staffer_uuid: stafferId,
      reserved_on: at(hhmm, date),
      ...customer(phone),
    },
  });

interface WritePath {
  name: string;
  /** Creates what the write acts on (a booking at 10:00 with the first staffer). */
  setup: boolean;
  act: (ctx: Ctx) => Promise<Received>;
  status: number;
  /** Time this write makes busy (a booking there must be refused), or null when it frees time. */
  busy: [number, string] | null;
  /** The write frees this time (a cancel). */
  frees?: [number, string];
  /** Did the write reach D1? */
  written: (ctx: Ctx, res: Received) => Promise<boolean>;
}

const count = async (sql: string, ...binds: unknown[]) =>
  (
    await env.DB.prepare(sql)
      .bind(...binds)
      .first<{ n: number }>()
  )?.n ?? 0;

const PATHS: WritePath[] = [
  {
    name: "create",
    setup: false,
    act: (ctx) => book(ctx.date, "10:00", staff[0] ?? ""),
    status: 201,
    busy: [0, "10:00"],
    written: async (ctx) =>
      (await count(
        "select count(*) as n from bookings where workspace_id = ? and start_at = ?",
        salon.ws.id,
        Date.parse(at("10:00", ctx.date)),
      )) === 1,
  },
  {
    name: "cart",
    setup: false,
    act: (ctx) =>
      salon.ws.api("/bookings/cart", {
        method: "POST",
        body: {
          location_uuid: salon.location.uuid,
          items: [
            {
              datetime_start: at("10:00", ctx.date),
              services: [
                { service_uuid: salon.cut.uuid, staffer_uuid: staff[0] },
                { service_uuid: salon.colour.uuid, staffer_uuid: staff[1] },
              ],
            },
          ],
          ...customer("+49 151 60000001"),
        },
      }),
    status: 201,
    busy: [1, "11:00"],
    written: async (ctx) =>
      (await count(
        "select count(*) as n from booking_services where workspace_id = ? and reserved_on = ?",
        salon.ws.id,
        Date.parse(at("11:00", ctx.date)),
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
    busy: [0, "12:00"],
    written: async (ctx) =>
      (await count(
        "select count(*) as n from bookings where id = ? and start_at = ?",
        ctx.booking,
        Date.parse(at("12:00", ctx.date)),
      )) === 1,
  },
  {
    name: "change staffer",
    setup: true,
    act: (ctx) =>
      salon.ws.api(`/bookings/${ctx.booking}/staffer`, {
        method: "PUT",
        body: { staffer_uuid: staff[1] },
      }),
    status: 200,
    busy: [1, "10:00"],
    written: async (ctx) =>
      (await count(
        "select count(*) as n from booking_services where booking_id = ? and staffer_id = ?",
        ctx.booking,
        staff[1],
      )) === 1,
  },
  {
    name: "replace service",
    setup: true,
    act: (ctx) =>
      salon.ws.api(`/bookings/${ctx.booking}/services`, {
        method: "PUT",
        body: { service_uuid: salon.colour.uuid },
      }),
    status: 200,
    busy: [0, "11:00"],
    written: async (ctx) =>
      (await count(
        "select count(*) as n from booking_services where booking_id = ? and service_id = ?",
        ctx.booking,
        salon.colour.uuid,
      )) === 1,
  },
  {
    name: "cancel",
    setup: true,
    act: (ctx) =>
      salon.ws.api(`/bookings/${ctx.booking}/status/cancel`, { method: "PUT", body: {} }),
    status: 200,
    busy: null,
    frees: [0, "10:00"],
    written: async (ctx) =>
      (await count(
        "select count(*) as n from bookings where id = ? and is_canceled = 1",
        ctx.booking,
      )) === 1,
  },
  {
    name: "blocked spot",
    setup: false,
    act: (ctx) =>
      salon.ws.api(`/staffers/${staff[0]}/blocked-spots`, {
        method: "POST",
        body: {
          location_uuid: salon.location.uuid,
          starts_at: at("13:00", ctx.date),
          ends_at: at("14:00", ctx.date),
        },
      }),
    status: 201,
    busy: [0, "13:00"],
    written: async (ctx) =>
      (await count(
        "select count(*) as n from blocked_spots where workspace_id = ? and starts_at = ?",
        salon.ws.id,
        Date.parse(at("13:00", ctx.date)),
      )) === 1,
  },
];

async function prepare(path: WritePath): Promise<Ctx> {
  const ctx: Ctx = { date: nextDate() };
  if (path.setup) {
    const res = await book(ctx.date, "10:00", staff[0] ?? "", "+49 151 60000002");
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    ctx.booking = res.body.uuid;
  }
  return ctx;
}

/** A probe booking at the time the write made busy (refused) or freed (accepted). */
async function probe(ctx: Ctx, [staffer, hhmm]: [number, string]) {
  return (await book(ctx.date, hhmm, staff[staffer] ?? "", "+49 151 60000003")).status;
}

async function settled(ctx: Ctx, path: WritePath) {
  await expireHolds(salon.ws.id, staff);
  await expectInSync(salon.ws.id, staff);
  if (path.busy) expect(await probe(ctx, path.busy)).toBe(409);
  if (path.frees) expect(await probe(ctx, path.frees)).toBe(201);
}

/** Only the batch of a calendar write carries the fence guard. */
const calendarBatch = (sql: string) => sql.includes("hold_fences");

describe.each(PATHS)("$name", (path) => {
  it("commits, but the Worker never hears of it: settles at once and answers success", async () => {
    const ctx = await prepare(path);
    failpoints.arm("d1.batch.committed", calendarBatch);
    const res = await path.act(ctx);
    expect(res.status, JSON.stringify(res.body)).toBe(path.status);
    expect(await path.written(ctx, res)).toBe(true);
    // Settled against D1 before answering: no hold left, nothing to wait for.
    await expectInSync(salon.ws.id, staff);
    if (path.busy) expect(await probe(ctx, path.busy)).toBe(409);
    if (path.frees) expect(await probe(ctx, path.frees)).toBe(201);
  });

  it("loses the confirm: the time stays busy until the alarm settles it", async () => {
    const ctx = await prepare(path);
    failpoints.arm("calendar.confirm", () => true, 3);
    const res = await path.act(ctx);
    expect(res.status, JSON.stringify(res.body)).toBe(path.status);
    expect(await path.written(ctx, res)).toBe(true);
    // Held, not confirmed: still busy for everyone, the freed time too.
    if (path.busy) expect(await probe(ctx, path.busy)).toBe(409);
    if (path.frees) expect(await probe(ctx, path.frees)).toBe(409);
    await settled(ctx, path);
  });

  it("commits, and both the answer and the settlement are lost: 500, no double booking, the alarm settles", async () => {
    const ctx = await prepare(path);
    failpoints.arm("d1.batch.committed", calendarBatch);
    failpoints.arm("calendar.settle", () => true, 3);
    const res = await path.act(ctx);
    expect(res.status).toBe(500);
    expect(await path.written(ctx, res)).toBe(true);
    if (path.busy) expect(await probe(ctx, path.busy)).toBe(409);
    if (path.frees) expect(await probe(ctx, path.frees)).toBe(409);
    await settled(ctx, path);
  });

  it("fails for certain inside the batch: nothing written, holds released at once", async () => {
    const ctx = await prepare(path);
    const table = path.name === "blocked spot" ? "calendar_entries" : "events";
    await env.DB.exec(
      `CREATE TRIGGER fault_${table} BEFORE INSERT ON ${table} BEGIN SELECT RAISE(ABORT, 'injected'); END`,
    );
    const settlesBefore = failpoints.hits("calendar.settle");
    let res: Received;
    try {
      res = await path.act(ctx);
    } finally {
      await env.DB.exec(`DROP TRIGGER fault_${table}`);
    }
    expect(res.status).toBe(500);
    expect(await path.written(ctx, res)).toBe(false);
    // Released, not settled: a certain failure needs no fence and no look at D1.
    expect(failpoints.hits("calendar.settle")).toBe(settlesBefore);
    await expectInSync(salon.ws.id, staff);
    if (ctx.booking) {
      // The booking still holds exactly its original time.
      expect(await entriesOf(ctx.booking)).toEqual([
        {
          staffer_id: staff[0],
          starts_at: Date.parse(at("10:00", ctx.date)),
          ends_at: Date.parse(at("11:00", ctx.date)),
        },
      ]);
    }
    if (path.busy) expect(await probe(ctx, path.busy)).toBe(201);
  });
});
