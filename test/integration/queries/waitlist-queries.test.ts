import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb, type Database, runBatch } from "../../../src/db/client";
import { run } from "../../../src/db/reads";
import {
  calendarEntries,
  reservations,
  serviceStaffers,
  waitlistDays,
  waitlistEntries,
  waitlistFreed,
} from "../../../src/db/schema";
import type { Scope } from "../../../src/db/scope";
import {
  cancelEntry,
  candidatesRead,
  dueFreedRead,
  endedOffersRead,
  expireEntries,
  findEntry,
  heldExpiriesIn,
  insertEntry,
  listEntries,
  nextDueRead,
  offerLapsed,
  openEntries,
  overdueFreed,
  type WaitlistEntryRow,
} from "../../../src/waitlist/queries/waitlist";
import { entryPassed } from "../../../src/waitlist/stored-entry";
import { createLocation, createWorkspace } from "../../helpers/factory";
import { createSalon, type Salon } from "../../helpers/salon";
import { shardOf } from "../../helpers/every-shard";
import { workspaceBeside } from "../../helpers/same-shard";

/**
 * The waitlist's queries called directly against D1, rows seeded with drizzle: what each
 * query itself decides (its filters, order, bounds and counts), and that another
 * workspace's rows never come back. The HTTP tests cover what the routes make of them.
 */

/**
 * Every workspace of this file lives on one shard, and the queries run there as
 * the app's handle runs them: one database, where a batch is a transaction, a
 * cron sweep's read (overdueFreed) sees that shard's workspaces, and another
 * workspace's rows are on the database read. Set by the file's first workspace.
 */
let home: string | undefined;
let db: Database;

async function settle(ws: { id: string; shard: string }) {
  if (home === undefined) {
    home = ws.shard;
    db = createDb((await shardOf(ws.id)).db);
  }
  return home === ws.shard;
}

async function workspaceHere() {
  const ws = home === undefined ? await createWorkspace() : await workspaceBeside({ shard: home });
  await settle(ws);
  return ws;
}

/** A salon on this file's shard: salons are made until one lands there. */
async function salonHere(staffCount: number): Promise<Salon> {
  for (let tries = 0; tries < 12; tries++) {
    const salon = await createSalon(staffCount);
    if (await settle(salon.ws)) return salon;
  }
  throw new Error(`no salon landed on ${home}`);
}

const T0 = Date.UTC(2030, 0, 7, 9);
const HOUR = 3_600_000;
const page = (perPage = 50, offset = 0) => ({ page: 1, perPage, offset });

/** A workspace with one location (two when asked), as a scope. */
async function tenant(locations = 1) {
  const ws = await workspaceHere();
  const ids: string[] = [];
  for (let i = 0; i < locations; i++) ids.push((await createLocation(ws)).uuid);
  return { scope: { db, workspaceId: ws.id } satisfies Scope, locations: ids };
}

let serial = 0;
/** A waiting entry for one service, created `order` ms after T0, its window T0 … T0 + 7 days. */
function entry(
  scope: Scope,
  locationId: string,
  over: Partial<typeof waitlistEntries.$inferInsert> = {},
): typeof waitlistEntries.$inferInsert {
  serial += 1;
  return {
    id: crypto.randomUUID(),
    workspaceId: scope.workspaceId,
    locationId,
    services: JSON.stringify([{ service_uuid: "svc", staffer_uuid: null }]),
    phone: "+4915100000001",
    firstName: "Wait",
    fromDate: "2030-01-07",
    toDate: "2030-01-13",
    windowStart: T0,
    windowEnd: T0 + 7 * 24 * HOUR,
    status: "waiting",
    apiKeyId: "key",
    createdAt: T0 + serial,
    updatedAt: T0 + serial,
    ...over,
  };
}

/** One statement per row: D1 binds at most 100 parameters to one. */
const seed = (rows: (typeof waitlistEntries.$inferInsert)[]) =>
  runBatch(
    db,
    rows.map((row) => db.insert(waitlistEntries).values(row)),
  );

const ids = (rows: { id: string }[]) => rows.map((r) => r.id);

describe("openEntries: what a cap counts", () => {
  it("counts waiting and offered entries of the holder only, in its own workspace", async () => {
    const a = await tenant();
    const b = await tenant();
    const at = a.locations[0] ?? "";
    const phone = "+4915100000077";
    await seed([
      entry(a.scope, at, { phone }),
      entry(a.scope, at, { phone, status: "offered" }),
      entry(a.scope, at, { phone, status: "canceled" }),
      entry(a.scope, at, { phone, status: "booked" }),
      entry(a.scope, at, { phone, status: "expired" }),
      entry(a.scope, at, { phone, visitor: "v1" }),
      entry(a.scope, at, { phone: "+4915100000078", visitor: "v1" }),
      entry(a.scope, at, { phone: "+4915100000079" }),
    ]);
    await seed([entry(b.scope, b.locations[0] ?? "", { phone, visitor: "v1" })]);

    // Staff's entries for the phone: not the ones a widget visitor made.
    expect(await openEntries(a.scope, { phone, staffOnly: true })).toBe(2);
    expect(await openEntries(a.scope, { phone, visitor: "v1" })).toBe(1);
    expect(await openEntries(a.scope, { visitor: "v1" })).toBe(2);
    expect(await openEntries(b.scope, { visitor: "v1" })).toBe(1);
    expect(await openEntries(b.scope, { phone, staffOnly: true })).toBe(0);
  });
});

describe("findEntry and listEntries", () => {
  it("lists oldest first (ids break ties), filters by status and location, pages with the total", async () => {
    const a = await tenant(2);
    const b = await tenant();
    const [here = "", there = ""] = a.locations;
    const rows = [
      entry(a.scope, here, { createdAt: T0 + 3, id: "00000000-0000-4000-8000-00000000000b" }),
      entry(a.scope, here, { createdAt: T0 + 3, id: "00000000-0000-4000-8000-00000000000a" }),
      entry(a.scope, here, { createdAt: T0 + 1 }),
      entry(a.scope, there, { createdAt: T0 + 2 }),
      entry(a.scope, here, { createdAt: T0, status: "canceled" }),
    ];
    await seed(rows);
    await seed([entry(b.scope, b.locations[0] ?? "", { createdAt: T0 - 1 })]);
    const [r0, r1, r2, r3, r4] = rows.map((r) => r.id);

    const all = await listEntries(a.scope, page(), {});
    expect(all.total).toBe(5);
    expect(ids(all.rows)).toEqual([r4, r2, r3, r1, r0]);

    const waitingHere = await listEntries(a.scope, page(), { status: "waiting", locationId: here });
    expect(ids(waitingHere.rows)).toEqual([r2, r1, r0]);
    expect(waitingHere.total).toBe(3);

    const second = await listEntries(a.scope, page(2, 2), {});
    expect(ids(second.rows)).toEqual([r3, r1]);
    expect(second.total).toBe(5);

    expect((await findEntry(a.scope, r0 ?? ""))?.id).toBe(r0);
    expect(await findEntry(b.scope, r0 ?? "")).toBeNull();
  });
});

describe("cancelEntry", () => {
  it("cancels the entry as read, clears its offer and its matching rows; a stale version changes nothing", async () => {
    const a = await tenant();
    const at = a.locations[0] ?? "";
    const row = entry(a.scope, at, {
      status: "offered",
      offerReservationId: "r",
      offerStart: T0,
      offerEnd: T0 + HOUR,
      offerExpiresAt: T0 + HOUR,
      offerTokenHash: "h",
      version: 3,
    });
    await runBatch(
      db,
      insertEntry(a.scope, row, [
        {
          workspaceId: a.scope.workspaceId,
          locationId: at,
          day: "2030-01-07",
          serviceId: "svc",
          entryId: row.id,
          createdAt: row.createdAt,
        },
      ]),
    );
    const read = (await findEntry(a.scope, row.id)) as WaitlistEntryRow;

    await runBatch(db, cancelEntry(a.scope, { ...read, version: 2 }, T0 + 5));
    expect((await findEntry(a.scope, row.id))?.status).toBe("offered");

    await runBatch(db, cancelEntry(a.scope, read, T0 + 5));
    const after = await findEntry(a.scope, row.id);
    expect(after).toMatchObject({
      status: "canceled",
      offerReservationId: null,
      offerStart: null,
      offerEnd: null,
      offerExpiresAt: null,
      offerTokenHash: null,
      version: 4,
      updatedAt: T0 + 5,
    });
    expect(await db.select().from(waitlistDays).where(eq(waitlistDays.entryId, row.id))).toEqual(
      [],
    );
  });
});

describe("expireEntries", () => {
  it("expires waiting entries of the location whose window is over, and drops their matching rows", async () => {
    const a = await tenant(2);
    const b = await tenant();
    const [here = "", there = ""] = a.locations;
    const now = T0 + 10 * 24 * HOUR;
    const over = entry(a.scope, here, { windowEnd: now });
    const open = entry(a.scope, here, { windowEnd: now + 1 });
    const offered = entry(a.scope, here, { windowEnd: now - 1, status: "offered" });
    const elsewhere = entry(a.scope, there, { windowEnd: now - 1 });
    const stranger = entry(b.scope, b.locations[0] ?? "", { windowEnd: now - 1 });
    await seed([over, open, offered, elsewhere]);
    await seed([stranger]);
    const day = (e: typeof over, scope: Scope) => ({
      workspaceId: scope.workspaceId,
      locationId: e.locationId,
      day: "2030-01-07",
      serviceId: "svc",
      entryId: e.id,
      createdAt: e.createdAt,
    });
    await db
      .insert(waitlistDays)
      .values([day(over, a.scope), day(open, a.scope), day(stranger, b.scope)]);

    await runBatch(db, expireEntries(a.scope, here, now));

    const status = async (scope: Scope, id: string) => (await findEntry(scope, id))?.status;
    expect(await status(a.scope, over.id)).toBe("expired");
    expect(await status(a.scope, open.id)).toBe("waiting");
    expect(await status(a.scope, offered.id)).toBe("offered");
    expect(await status(a.scope, elsewhere.id)).toBe("waiting");
    expect(await status(b.scope, stranger.id)).toBe("waiting");
    const days = await db.select({ entryId: waitlistDays.entryId }).from(waitlistDays);
    const left = new Set(days.map((d) => d.entryId));
    expect([left.has(over.id), left.has(open.id), left.has(stranger.id)]).toEqual([
      false,
      true,
      true,
    ]);
  });
});

describe("offers that ended", () => {
  async function offeredEntry(
    lapses: number,
    reservation: { expiresAt: number; released?: number },
  ) {
    const a = await tenant();
    const at = a.locations[0] ?? "";
    const reservationId = crypto.randomUUID();
    await db.insert(reservations).values({
      id: reservationId,
      workspaceId: a.scope.workspaceId,
      locationId: at,
      items: "[]",
      expiresAt: reservation.expiresAt,
      releasedAt: reservation.released ?? null,
      createdAt: T0,
    });
    const row = entry(a.scope, at, {
      status: "offered",
      offerReservationId: reservationId,
      offerStart: T0 + 2 * HOUR,
      offerEnd: T0 + 3 * HOUR,
      offerExpiresAt: reservation.expiresAt,
      passed: JSON.stringify([{ start: 1, end: 2 }]),
      lapses,
    });
    await seed([row]);
    return { ...a, at, reservationId, row: (await findEntry(a.scope, row.id)) as WaitlistEntryRow };
  }

  it("endedOffersRead finds offers past their expiry or whose reservation was released, not live ones", async () => {
    const expired = await offeredEntry(0, { expiresAt: T0 + HOUR });
    const released = await offeredEntry(0, { expiresAt: T0 + 9 * HOUR, released: T0 });
    const live = await offeredEntry(0, { expiresAt: T0 + 9 * HOUR });
    const now = T0 + HOUR;
    const ended = async (o: typeof expired) =>
      ids(await run(db, endedOffersRead(o.scope, o.at, now, 10)));
    expect(await ended(expired)).toEqual([expired.row.id]);
    expect(await ended(released)).toEqual([released.row.id]);
    expect(await ended(live)).toEqual([]);
  });

  it("offerLapsed: the entry waits again, its offered time passed on; its reservation, expired, is released", async () => {
    const o = await offeredEntry(0, { expiresAt: T0 + HOUR });
    await runBatch(db, offerLapsed(o.scope, o.row, 3, T0 + HOUR));
    const after = (await findEntry(o.scope, o.row.id)) as WaitlistEntryRow;
    expect(after).toMatchObject({ status: "waiting", lapses: 1, offerReservationId: null });
    expect(entryPassed(after)).toEqual([
      { start: 1, end: 2 },
      { start: T0 + 2 * HOUR, end: T0 + 3 * HOUR },
    ]);
    const [reservation] = await db
      .select()
      .from(reservations)
      .where(eq(reservations.id, o.reservationId));
    expect(reservation?.releasedAt).toBe(T0 + HOUR);
  });

  it("offerLapsed: at its last lapse the entry expires", async () => {
    const o = await offeredEntry(2, { expiresAt: T0 + HOUR });
    await runBatch(db, offerLapsed(o.scope, o.row, 3, T0 + HOUR));
    expect(await findEntry(o.scope, o.row.id)).toMatchObject({ status: "expired", lapses: 3 });
  });

  it("offerLapsed leaves an offer alone whose reservation is neither expired nor released", async () => {
    const o = await offeredEntry(0, { expiresAt: T0 + 9 * HOUR });
    await runBatch(db, offerLapsed(o.scope, o.row, 3, T0 + HOUR));
    expect(await findEntry(o.scope, o.row.id)).toMatchObject({ status: "offered", lapses: 0 });
  });
});

describe("freed time", () => {
  const freed = (
    scope: Scope,
    locationId: string,
    over: Partial<typeof waitlistFreed.$inferInsert> = {},
  ): typeof waitlistFreed.$inferInsert => ({
    workspaceId: scope.workspaceId,
    locationId,
    startsAt: T0,
    endsAt: T0 + HOUR,
    dueAt: T0,
    createdAt: T0,
    ...over,
  });

  it("dueFreedRead: due rows of the location, by due time then id, up to the limit", async () => {
    const a = await tenant(2);
    const b = await tenant();
    const [here = "", there = ""] = a.locations;
    const inserted = await db
      .insert(waitlistFreed)
      .values([
        freed(a.scope, here, { dueAt: T0 + 2 }),
        freed(a.scope, here, { dueAt: T0 + 1 }),
        freed(a.scope, here, { dueAt: T0 + 1 }),
        freed(a.scope, here, { dueAt: T0 + 50 }),
        freed(a.scope, there, { dueAt: T0 }),
      ])
      .returning({ id: waitlistFreed.id });
    await db.insert(waitlistFreed).values(freed(b.scope, b.locations[0] ?? "", { dueAt: T0 }));
    const [late, early1, early2] = inserted.map((r) => r.id);

    const due = await run(db, dueFreedRead(a.scope, here, T0 + 10, 10));
    expect(due.map((r) => r.id)).toEqual([early1, early2, late]);
    const bounded = await run(db, dueFreedRead(a.scope, here, T0 + 10, 2));
    expect(bounded.map((r) => r.id)).toEqual([early1, early2]);
  });

  it("nextDueRead: the soonest of freed time coming due, an offer expiring, a window ending", async () => {
    const a = await tenant(2);
    const [here = "", there = ""] = a.locations;
    expect(await run(db, nextDueRead(a.scope, here))).toBeNull();
    await seed([
      entry(a.scope, here, { windowEnd: T0 + 30 }),
      entry(a.scope, here, { status: "expired", windowEnd: T0 + 1 }),
      entry(a.scope, there, { windowEnd: T0 + 2 }),
    ]);
    expect(await run(db, nextDueRead(a.scope, here))).toBe(T0 + 30);
    await seed([
      entry(a.scope, here, { status: "offered", offerExpiresAt: T0 + 20, windowEnd: T0 + 99 }),
    ]);
    expect(await run(db, nextDueRead(a.scope, here))).toBe(T0 + 20);
    await db.insert(waitlistFreed).values(freed(a.scope, here, { dueAt: T0 + 10 }));
    expect(await run(db, nextDueRead(a.scope, here))).toBe(T0 + 10);
  });

  it("overdueFreed: each location with overdue time once, across workspaces, bounded", async () => {
    const a = await tenant(2);
    const b = await tenant();
    const [here = "", there = ""] = a.locations;
    const before = T0 - 1_000_000;
    await db
      .insert(waitlistFreed)
      .values([
        freed(a.scope, here, { dueAt: before - 2 }),
        freed(a.scope, here, { dueAt: before - 1 }),
        freed(a.scope, there, { dueAt: before + 1 }),
      ]);
    await db.insert(waitlistFreed).values(freed(b.scope, b.locations[0] ?? "", { dueAt: before }));
    const overdue = await overdueFreed(db, before, 1_000);
    const mine = overdue.filter((o) =>
      [a.scope.workspaceId, b.scope.workspaceId].includes(o.workspaceId),
    );
    expect(mine).toHaveLength(2);
    expect(mine).toEqual(
      expect.arrayContaining([
        { workspaceId: a.scope.workspaceId, locationId: here },
        { workspaceId: b.scope.workspaceId, locationId: b.locations[0] },
      ]),
    );
    // Newest workspace ids first (the order a bounded cron run takes them in).
    const order = overdue.map((o) => o.workspaceId);
    expect(order).toEqual([...order].sort().reverse());
    expect(await overdueFreed(db, before, 1)).toHaveLength(1);
  });
});

describe("candidatesRead: who freed time can go to", () => {
  it("finds waiting entries for the days and the services the freed calendars serve, oldest first, bounded", async () => {
    const salon = await salonHere(2);
    const stranger = await salonHere(1);
    const scope: Scope = { db, workspaceId: salon.ws.id };
    const at = salon.location.uuid;
    const [alice = "", bob = ""] = salon.staffers.map((s) => s.uuid);
    // Only Alice performs the colouring; both perform the cut (a new service is everyone's).
    await db
      .delete(serviceStaffers)
      .where(
        and(eq(serviceStaffers.serviceId, salon.colour.uuid), eq(serviceStaffers.stafferId, bob)),
      );
    const entries: (typeof waitlistEntries.$inferInsert & { day: string; service: string })[] = [];
    const add = (
      day: string,
      service: string,
      over: Partial<typeof waitlistEntries.$inferInsert> = {},
    ) => {
      const row = { ...entry(scope, at, over), day, service };
      entries.push(row);
      return row.id;
    };
    const cutMon = add("2030-01-07", salon.cut.uuid);
    const colourMon = add("2030-01-07", salon.colour.uuid);
    const cutTue = add("2030-01-08", salon.cut.uuid);
    // Holding an offer already: never a candidate.
    add("2030-01-07", salon.cut.uuid, { status: "offered" });
    const olderCutMon = add("2030-01-07", salon.cut.uuid, { createdAt: T0 - 5 });
    await seed(entries.map(({ day: _d, service: _s, ...row }) => row));
    await db.insert(waitlistDays).values(
      entries.map((e) => ({
        workspaceId: scope.workspaceId,
        locationId: at,
        day: e.day,
        serviceId: e.service,
        entryId: e.id,
        createdAt: e.createdAt,
      })),
    );
    // The stranger's entry sits on the same day for the stranger's cut.
    const theirs = entry({ db, workspaceId: stranger.ws.id }, stranger.location.uuid);
    await seed([theirs]);
    await db.insert(waitlistDays).values({
      workspaceId: stranger.ws.id,
      locationId: stranger.location.uuid,
      day: "2030-01-07",
      serviceId: stranger.cut.uuid,
      entryId: theirs.id,
      createdAt: theirs.createdAt,
    });

    const query = {
      locationId: at,
      days: ["2030-01-07"],
      stafferIds: [] as string[],
      resourceIds: [] as string[],
      serviceIds: [] as string[],
      excluded: [] as string[],
      limit: 10,
    };
    const found = async (q: Partial<typeof query>) =>
      ids(await run(db, candidatesRead(scope, { ...query, ...q })));

    // Bob frees time: only the cut is his.
    expect(await found({ stafferIds: [bob] })).toEqual([olderCutMon, cutMon]);
    // Alice frees time: both services, never the offered entry, nor Tuesday's.
    expect(await found({ stafferIds: [alice] })).toEqual([olderCutMon, cutMon, colourMon]);
    // Services named outright (an offer's lapsed time), without any calendar.
    expect(await found({ serviceIds: [salon.colour.uuid] })).toEqual([colourMon]);
    expect(await found({ stafferIds: [alice], days: ["2030-01-07", "2030-01-08"] })).toEqual([
      olderCutMon,
      cutMon,
      colourMon,
      cutTue,
    ]);
    expect(await found({ stafferIds: [alice], excluded: [olderCutMon] })).toEqual([
      cutMon,
      colourMon,
    ]);
    expect(await found({ stafferIds: [alice], limit: 2 })).toEqual([olderCutMon, cutMon]);
    // Another workspace's staffer frees nothing here, and its entry is never a candidate.
    expect(await found({ stafferIds: stranger.staffers.map((s) => s.uuid) })).toEqual([]);
    expect(await found({ serviceIds: [stranger.cut.uuid] })).toEqual([]);
  });

  it("heldExpiriesIn records the location's holds in a new entry's window as freed at their expiry", async () => {
    const salon = await salonHere(1);
    const scope: Scope = { db, workspaceId: salon.ws.id };
    const at = salon.location.uuid;
    const staffer = salon.staffers[0]?.uuid ?? "";
    const held = (startsAt: number, expiresAt: number, kind: "held" | "booking" = "held") => ({
      id: crypto.randomUUID(),
      workspaceId: scope.workspaceId,
      stafferId: staffer,
      locationId: at,
      kind,
      sourceId: crypto.randomUUID(),
      startsAt,
      endsAt: startsAt + HOUR,
      expiresAt: kind === "held" ? expiresAt : null,
    });
    const now = T0 - HOUR;
    const inWindow = held(T0 + HOUR, now + 600_000);
    await db.insert(calendarEntries).values([
      inWindow,
      held(T0 + 2 * HOUR, now - 1), // expired before the entry joined
      held(T0 + 3 * HOUR, now + 600_000, "booking"),
      held(T0 + 8 * 24 * HOUR, now + 600_000), // after the window
    ]);
    const row = entry(scope, at, { createdAt: now });
    await db.insert(waitlistEntries).values(row);
    await heldExpiriesIn(scope, row);
    const rows = await db
      .select()
      .from(waitlistFreed)
      .where(eq(waitlistFreed.workspaceId, scope.workspaceId));
    expect(rows.map((r) => ({ startsAt: r.startsAt, dueAt: r.dueAt, entryId: r.entryId }))).toEqual(
      [{ startsAt: inWindow.startsAt, dueAt: inWindow.expiresAt, entryId: null }],
    );
  });
});
