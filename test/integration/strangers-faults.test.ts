import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { calendarFor } from "../../src/calendar/client";
import { failpoints, rendezvous } from "../../src/platform/failpoints";
import { expectInSync, expectUnitsInSync, expireHolds } from "../helpers/calendar";
import { countOf, faultSuite, weekdays } from "../helpers/faults";
import { admin } from "../helpers/http";
import { createPublishableKey, type PublishableKey } from "../helpers/keys";
import { createResource } from "../helpers/resources";
import { at, createSalon, customer, type Salon } from "../helpers/salon";
import { everyShard } from "../helpers/every-shard";

/**
 * Failures injected into a staff write that takes over a publishable key's
 * hold: a batch that certainly failed, one lost before it reached D1, one
 * whose answer was lost, a lost confirm. A staff write that did not commit
 * leaves the hold whole (its customer can still book it, nobody else can);
 * one that committed ends it. Calendars equal D1 at rest.
 */
let salon: Salon;
let pk: PublishableKey;
let staff: string[];
// A salon per test: a calendar left wrong by one test must not fail the next one's audit.
beforeEach(async () => {
  salon = await createSalon(2);
  pk = await createPublishableKey(salon.ws);
  staff = salon.staffers.map((s) => s.uuid);
});
afterEach(() => failpoints.disarmAll());

const nextDate = weekdays("2034-01-02");

let addresses = 0;
const visitor = () => {
  const ip = `198.51.100.${++addresses}`;
  return (path: string, sent: Parameters<PublishableKey["api"]>[1] = {}) =>
    pk.api(path, { ...sent, headers: { "cf-connecting-ip": ip, ...sent?.headers } });
};
type Visitor = ReturnType<typeof visitor>;

/** A visitor's hold of a cut with staffer 0 at 10:00 (and a colouring with staffer 1 when `both`). */
const heldItems = (date: string, both = false) => [
  {
    datetime_start: at("10:00", date),
    services: [{ service_uuid: salon.cut.uuid, staffer_uuid: staff[0] }],
  },
  ...(both
    ? [
        {
          datetime_start: at("10:00", date),
          services: [{ service_uuid: salon.colour.uuid, staffer_uuid: staff[1] }],
        },
      ]
    : []),
];

async function holdOf(me: Visitor, date: string, both = false) {
  const res = await me("/reservations", {
    method: "POST",
    body: { location_uuid: salon.location.uuid, items: heldItems(date, both) },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.uuid as string;
}

const staffBook = (date: string) =>
  salon.ws.api("/bookings", {
    method: "POST",
    body: {
      location_uuid: salon.location.uuid,
      service_uuid: salon.cut.uuid,
      staffer_uuid: staff[0],
      reserved_on: at("10:00", date),
      ...customer("+49 151 80000000"),
    },
  });

const staffBlock = (date: string) =>
  salon.ws.api(`/staffers/${staff[0]}/blocked-spots`, {
    method: "POST",
    body: {
      location_uuid: salon.location.uuid,
      starts_at: at("09:00", date),
      ends_at: at("12:00", date),
    },
  });

/** Another visitor's try for the held time (a publishable key never takes a hold). */
const stranger = async (date: string, stafferId = staff[0]) =>
  (
    await visitor()("/bookings", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        service_uuid: salon.cut.uuid,
        staffer_uuid: stafferId,
        reserved_on: at("10:00", date),
        ...customer("+49 151 80000001"),
      },
    })
  ).status;

/** The holder books what the reservation holds. */
const use = (me: Visitor, date: string, id: string, both = true) =>
  me("/bookings/cart", {
    method: "POST",
    body: {
      location_uuid: salon.location.uuid,
      reservation_uuid: id,
      items: heldItems(date, both),
      ...customer(),
    },
  });

const staffWriteBatch = (sql: string) =>
  sql.includes("hold_fences") && !sql.includes('reservations" (');

const liveRows = (id: string) =>
  countOf(
    "select count(*) as n from calendar_entries where source_id = ? and expires_at > ?",
    id,
    Date.now(),
  );

/** The hold is whole: GET shows it, D1 keeps its rows, no stranger gets its time, calendars agree. */
async function expectWhole(me: Visitor, date: string, id: string, rows: number) {
  expect((await me(`/reservations/${id}`)).status).toBe(200);
  expect(await liveRows(id)).toBe(rows);
  await expectInSync(salon.ws.id, staff);
  expect(await stranger(date)).toBe(409);
  if (rows > 1) expect(await stranger(date, staff[1])).toBe(409);
}

interface Ctx {
  date: string;
  me: Visitor;
  /** The visitor's reservation. */
  id: string;
}

/** A fresh day on which a visitor holds 10:00 with staffer 0 (and with staffer 1 when `both`). */
const held = (both: boolean) => async (): Promise<Ctx> => {
  const date = nextDate();
  const me = visitor();
  return { date, me, id: await holdOf(me, date, both) };
};

/** A write that did not commit leaves the two-staffer hold whole, and its customer can book it. */
async function stillBookable(ctx: Ctx) {
  await expectWhole(ctx.me, ctx.date, ctx.id, 2);
  const booked = await use(ctx.me, ctx.date, ctx.id);
  expect(booked.status, JSON.stringify(booked.body)).toBe(201);
  await expectInSync(salon.ws.id, staff);
}

/** A write that committed ended the hold: no live rows, and GET no longer finds it. */
async function holdEnded(ctx: Ctx) {
  expect((await ctx.me(`/reservations/${ctx.id}`)).status).toBe(404);
  expect(await liveRows(ctx.id)).toBe(0);
}

/**
 * …and its time with the other staffer is free again: given back in a calendar
 * the write does not claim, so without waiting for the write's own confirm.
 */
async function heldTimeFreed(ctx: Ctx) {
  await holdEnded(ctx);
  expect(await stranger(ctx.date, staff[1])).toBe(201);
}

const staffBooked = (ctx: Ctx) =>
  countOf(
    "select count(*) as n from bookings where workspace_id = ? and start_at = ?",
    salon.ws.id,
    Date.parse(at("10:00", ctx.date)),
  );

describe("a staff write over a publishable hold", () => {
  faultSuite<Ctx, number>({
    writes: [
      {
        name: "booking over a two-staffer hold",
        arrange: held(true),
        act: (ctx) => staffBook(ctx.date),
        status: 201,
        written: async (ctx) => (await staffBooked(ctx)) === 1,
        busy: 0,
        heldBefore: true,
        failingTable: "bookings",
        afterCommit: heldTimeFreed,
        unchanged: stillBookable,
        faults: ["lost", "certain failure", "lost, settlement lost", "unheard", "confirm lost"],
      },
      {
        name: "blocked spot over a two-staffer hold",
        arrange: held(true),
        act: (ctx) => staffBlock(ctx.date),
        status: 201,
        written: async (ctx) =>
          (await countOf(
            "select count(*) as n from blocked_spots where workspace_id = ? and starts_at = ?",
            salon.ws.id,
            Date.parse(at("09:00", ctx.date)),
          )) === 1,
        busy: 0,
        heldBefore: true,
        failingTable: "blocked_spots",
        afterCommit: heldTimeFreed,
        unchanged: stillBookable,
        faults: ["lost", "certain failure"],
      },
      {
        name: "booking over a one-staffer hold",
        arrange: held(false),
        act: (ctx) => staffBook(ctx.date),
        status: 201,
        written: async (ctx) => (await staffBooked(ctx)) === 1,
        busy: 0,
        heldBefore: true,
        failingTable: "bookings",
        // The hold is gone: its customer can no longer book it.
        afterCommit: async (ctx) => {
          await holdEnded(ctx);
          expect((await use(ctx.me, ctx.date, ctx.id, false)).status).toBe(409);
        },
        faults: ["unheard"],
      },
    ],
    probe: (ctx, staffer) => stranger(ctx.date, staff[staffer]),
    inSync: () => expectInSync(salon.ws.id, staff),
    expireHolds: () => expireHolds(salon.ws.id, staff),
    losses: 3,
    // The staff write's batch, not the reservation's own.
    batch: staffWriteBatch,
  });
});

describe("a staff write over a hold whose own write is still confirming", () => {
  it("the staff write's answer is lost (settled as committed), then the hold's late confirm lands: the ended hold stays gone", async () => {
    const date = nextDate();
    const me = visitor();
    // The reservation commits, but its confirm has not reached the calendar yet.
    failpoints.arm("calendar.confirm", () => true, 1);
    const id = await holdOf(me, date);
    await vi.waitFor(() => expect(failpoints.hits("calendar.confirm")).toBeGreaterThanOrEqual(1));
    const calendar = calendarFor(env, salon.ws.id, staff[0] ?? "");
    const holdId = await runInDurableObject(calendar, (_instance, state) => {
      const [row] = state.storage.sql
        .exec<{ hold_id: string | null }>("SELECT hold_id FROM entries WHERE source_id = ?", id)
        .toArray();
      return row?.hold_id ?? null;
    });
    expect(holdId).not.toBeNull();

    failpoints.arm("d1.batch.committed", staffWriteBatch);
    const res = await staffBook(date);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(await liveRows(id)).toBe(0);
    // The reservation's confirm arrives only now.
    await calendar.confirm(holdId ?? "");
    await expectInSync(salon.ws.id, staff);
  });
});

describe("a staff write over several calendars, one taking a hold and another refusing", () => {
  it("a cart: staffer 0's hold taken, staffer 1 busy: 409, the hold stays whole and can be booked", async () => {
    const date = nextDate();
    const me = visitor();
    const id = await holdOf(me, date);
    // Staffer 1 is booked by staff at 10:00 (a real booking, which nothing takes over).
    const busy = await salon.ws.api("/bookings", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        service_uuid: salon.colour.uuid,
        staffer_uuid: staff[1],
        reserved_on: at("10:00", date),
        ...customer("+49 151 80000002"),
      },
    });
    expect(busy.status, JSON.stringify(busy.body)).toBe(201);
    const cart = await salon.ws.api("/bookings/cart", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        items: [
          {
            datetime_start: at("10:00", date),
            services: [
              { service_uuid: salon.cut.uuid, staffer_uuid: staff[0] },
              { service_uuid: salon.cut.uuid, staffer_uuid: staff[1] },
            ],
          },
        ],
        ...customer("+49 151 80000003"),
      },
    });
    expect(cart.status, JSON.stringify(cart.body)).toBe(409);
    expect(cart.body.code).toBe("slot_unavailable");
    await expectWhole(me, date, id, 1);
    expect((await use(me, date, id, false)).status).toBe(201);
    await expectInSync(salon.ws.id, staff);
  });

  it("a resource block over all units: a publishable hold on one unit, a secret hold on another: 409, the publishable hold stays whole", async () => {
    const date = nextDate();
    const room = await createResource(salon.ws, salon.location.uuid, { kind: "room", quantity: 2 });
    const treatment = await salon.ws.api("/services", {
      method: "POST",
      body: { name: "Treatment", duration: 60, price: 5000, resource_uuids: [room.uuid] },
    });
    expect(treatment.status, JSON.stringify(treatment.body)).toBe(201);
    const item = (stafferId: string | undefined) => [
      {
        datetime_start: at("10:00", date),
        services: [{ service_uuid: treatment.body.uuid, staffer_uuid: stafferId }],
      },
    ];
    const me = visitor();
    const publicHold = await me("/reservations", {
      method: "POST",
      body: { location_uuid: salon.location.uuid, items: item(staff[0]) },
    });
    expect(publicHold.status, JSON.stringify(publicHold.body)).toBe(201);
    const secretHold = await salon.ws.api("/reservations", {
      method: "POST",
      body: { location_uuid: salon.location.uuid, items: item(staff[1]) },
    });
    expect(secretHold.status, JSON.stringify(secretHold.body)).toBe(201);

    const repair = await admin(`/workspaces/${salon.ws.id}/resources/${room.uuid}/blocked-spots`, {
      method: "POST",
      body: { starts_at: at("09:00", date), ends_at: at("12:00", date) },
    });
    expect(repair.status, JSON.stringify(repair.body)).toBe(409);
    expect((await me(`/reservations/${publicHold.body.uuid}`)).status).toBe(200);
    expect(await liveRows(publicHold.body.uuid)).toBe(2);
    await expectInSync(salon.ws.id, staff);
    await expectUnitsInSync(salon.ws.id, [room]);
    const booked = await me("/bookings/cart", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        reservation_uuid: publicHold.body.uuid,
        items: item(staff[0]),
        ...customer(),
      },
    });
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    await expectUnitsInSync(salon.ws.id, [room]);
  });
});

describe("writers meeting over one publishable hold, in a forced order", () => {
  /** Starts the writes, each held after its claims until all have claimed; then their batches race. */
  async function afterAllClaimed<T>(writes: (() => Promise<T>)[]) {
    failpoints.meet("calendar.claimed", writes.length, 5_000);
    return Promise.all(writes.map((w) => w()));
  }

  const staffBlockOf = (date: string, stafferId: string | undefined) =>
    salon.ws.api(`/staffers/${stafferId}/blocked-spots`, {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        starts_at: at("09:00", date),
        ends_at: at("12:00", date),
      },
    });

  it("two staff writes take the same two-staffer hold, one in each calendar: both succeed, the hold ends once", async () => {
    for (let round = 0; round < 3; round++) {
      const date = nextDate();
      const me = visitor();
      const id = await holdOf(me, date, true);
      const [booked, blocked] = await afterAllClaimed([
        () => staffBook(date),
        () => staffBlockOf(date, staff[1]),
      ]);
      expect(booked?.status, JSON.stringify(booked?.body)).toBe(201);
      expect(blocked?.status, JSON.stringify(blocked?.body)).toBe(201);
      expect(await liveRows(id)).toBe(0);
      expect((await me(`/reservations/${id}`)).status).toBe(404);
      await expectInSync(salon.ws.id, staff);
    }
  });

  it("two staff writes take the same hold in one calendar: the second waits for the first, never both over a live hold", async () => {
    const date = nextDate();
    const me = visitor();
    const id = await holdOf(me, date);
    const [a, b] = await Promise.all([staffBlockOf(date, staff[0]), staffBlockOf(date, staff[0])]);
    expect([a?.status, b?.status], JSON.stringify([a?.body, b?.body])).toEqual([201, 201]);
    expect(await liveRows(id)).toBe(0);
    await expectInSync(salon.ws.id, staff);
  });

  it("a staff write and DELETE of the hold: whichever claims first, the hold ends once and calendars agree", async () => {
    for (let round = 0; round < 4; round++) {
      const date = nextDate();
      const me = visitor();
      const id = await holdOf(me, date, true);
      const del = () => me(`/reservations/${id}`, { method: "DELETE" });
      const [first, second] =
        round % 2 === 0
          ? await Promise.all([staffBook(date), del()])
          : await Promise.all([del(), staffBook(date)]).then(([d, s]) => [s, d] as const);
      expect(first?.status, JSON.stringify(first?.body)).toBeOneOf([201, 409]);
      expect(second?.status, JSON.stringify(second?.body)).toBeOneOf([204, 404]);
      // Never both lost: the staff write is refused only while the DELETE was freeing the time.
      expect(first?.status === 201 || second?.status === 204).toBe(true);
      expect(await liveRows(id)).toBe(0);
      await expectInSync(salon.ws.id, staff);
    }
  });

  it("the hold expires while a staff write that took it is between its claim and its batch: 201, calendars agree", async () => {
    const date = nextDate();
    const me = visitor();
    const id = await holdOf(me, date, true);
    failpoints.meet("calendar.claimed", 2, 10_000);
    const before = failpoints.hits("calendar.claimed");
    const pending = staffBook(date);
    await vi.waitFor(() => expect(failpoints.hits("calendar.claimed")).toBe(before + 1));
    // The reservation's time is up: in D1 and in both calendars, whose alarms run now.
    const past = Date.now() - 1_000;
    await everyShard
      .prepare("update reservations set expires_at = ? where id = ?")
      .bind(past, id)
      .run();
    await everyShard
      .prepare("update calendar_entries set expires_at = ? where source_id = ?")
      .bind(past, id)
      .run();
    for (const stafferId of staff) {
      const stub = calendarFor(env, salon.ws.id, stafferId);
      await runInDurableObject(stub, (_instance, state) => {
        state.storage.sql.exec("UPDATE entries SET expires_ms = ? WHERE source_id = ?", past, id);
      });
      await runDurableObjectAlarm(stub);
    }
    await rendezvous("calendar.claimed");
    const res = await pending;
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await expectInSync(salon.ws.id, staff);
    expect(await stranger(date, staff[1])).toBe(201);
  });
});

describe("a calendar rebuilt from D1 keeps which holds give way", () => {
  it("after a rebuild, and in an object that lost its storage, staff still take a publishable hold (and never a secret one)", async () => {
    const date = nextDate();
    const me = visitor();
    const id = await holdOf(me, date, true);
    const secret = await salon.ws.api("/reservations", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        items: [
          {
            datetime_start: at("14:00", date),
            services: [{ service_uuid: salon.cut.uuid, staffer_uuid: staff[0] }],
          },
        ],
      },
    });
    expect(secret.status, JSON.stringify(secret.body)).toBe(201);
    const rebuilt = await admin(
      `/workspaces/${salon.ws.id}/staffers/${staff[0]}/calendar/rebuild`,
      { method: "POST" },
    );
    expect(rebuilt.status, JSON.stringify(rebuilt.body)).toBe(200);
    // Staffer 1's object loses its storage (a reset namespace): it loads D1 on its next claim.
    await runInDurableObject(calendarFor(env, salon.ws.id, staff[1] ?? ""), (_i, state) => {
      for (const table of ["entries", "holds", "replacing", "meta"]) {
        state.storage.sql.exec(`DELETE FROM ${table}`);
      }
    });
    const blocked = await salon.ws.api(`/staffers/${staff[1]}/blocked-spots`, {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        starts_at: at("09:00", date),
        ends_at: at("11:00", date),
      },
    });
    expect(blocked.status, JSON.stringify(blocked.body)).toBe(201);
    expect(await liveRows(id)).toBe(0);
    const overSecret = await salon.ws.api(`/staffers/${staff[0]}/blocked-spots`, {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        starts_at: at("14:00", date),
        ends_at: at("15:00", date),
      },
    });
    expect(overSecret.status, JSON.stringify(overSecret.body)).toBe(409);
    await expectInSync(salon.ws.id, staff);
    expect(await stranger(date)).toBe(201);
  });
});
