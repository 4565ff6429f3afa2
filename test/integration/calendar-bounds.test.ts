import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { MAX_CALENDAR_CALLS } from "../../src/calendar/budget";
import { calendarFor, commitPlanned, commitWithClaims } from "../../src/calendar/client";
import { createDb } from "../../src/db/client";
import { D1Counter, instrumentD1 } from "../../src/db/instrumented-d1";
import { D1_MAX_BATCH_STATEMENTS, TooManyStatementsError } from "../../src/db/limits";
import { SlotTakenError } from "../../src/calendar/slot-taken";
import { expectInSync, expectUnitsInSync, unitOverlaps } from "../helpers/calendar";
import { rowCount } from "../helpers/db";
import {
  createLocation,
  createStaffer,
  createWorkspace,
  type TestWorkspace,
  WEEKDAYS_9_TO_18,
} from "../helpers/factory";
import { createResource, type TestResource } from "../helpers/resources";
import { customer } from "../helpers/salon";
import { shardOf } from "../helpers/every-shard";

/**
 * A request makes a bounded number of calendar calls and D1 statements,
 * whatever it retries (Cloudflare counts both per invocation):
 * - each calendar is claimed at most twice, and a request's calendar calls
 *   (claims, and the release, confirm or settle that ends each granted
 *   claim) never pass 100, nor 4 × the calendars it touched;
 * - a write whose claims and confirms alone would pass 100 calls, or whose
 *   batch would pass 100 statements, is refused up front with 422
 *   `request_too_large`, nothing written and nothing held;
 * - the maxima the API accepts fit: a 10 × 10 cart or reservation whose
 *   services need 10 resources each is 20 calendars and a few dozen
 *   statements.
 * Server-Timing tells: `calendar` (calls one after another),
 * `calendar-total` (every call, the confirms after the answer included),
 * `calendars` (how many it touched) and `d1-statements`.
 */
const MAX = 10;
const UNITS = 10;

// Writes at the API's maxima and storms of them: slower than the default 5 s on a busy machine.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

let ws: TestWorkspace;

/** The workspace's shard as the app's handle reaches it: instrumented, its placement checked. */
const shardHandle = async (hops = new D1Counter()) =>
  instrumentD1((await shardOf(ws.id)).db, hops, undefined, { workspaceId: ws.id });
let location: { uuid: string };
let staffers: { uuid: string }[];
/** Ten one-unit rooms: every service of a cart takes the same unit of each. */
let rooms: TestResource[];
/** Ten resources of ten units: items at the same start take different units. */
let wide: TestResource[];
let plain: { uuid: string }[];
let roomy: { uuid: string }[];
let spread: { uuid: string };

// Mondays from 2032-03-01 (Berlin UTC+1).
const day = (week: number, offset = 0) =>
  new Date(Date.parse("2032-03-01T00:00:00Z") + (week * 7 + offset) * 86_400_000)
    .toISOString()
    .slice(0, 10);

interface Timing {
  d1: number;
  statements: number;
  /** Calendar calls one after another. */
  hops: number;
  total: number;
  calendars: number;
}

function timing(headers: Headers): Timing {
  const header = headers.get("server-timing") ?? "";
  const read = (re: RegExp) => {
    const match = re.exec(header);
    if (!match?.[1]) throw new Error(`${re.source} not in Server-Timing: ${header}`);
    return Number(match[1]);
  };
  return {
    d1: read(/d1;dur=[\d.]+;desc="(\d+) round trips"/),
    statements: read(/d1-statements;desc="(\d+)"/),
    hops: read(/calendar;dur=[\d.]+;desc="(\d+) calls"/),
    total: read(/calendar-total;desc="(\d+) calls"/),
    calendars: read(/calendars;desc="(\d+)"/),
  };
}

/** The bound every request keeps, whatever it retried. */
function expectBounded(t: Timing, label: string) {
  expect(t.total, label).toBeLessThanOrEqual(MAX_CALENDAR_CALLS);
  expect(t.total, label).toBeLessThanOrEqual(4 * t.calendars);
}

beforeAll(async () => {
  ws = await createWorkspace();
  location = await createLocation(ws, { timezone: "Europe/Berlin" });
  staffers = [];
  for (let i = 0; i < MAX; i++) {
    staffers.push(
      await createStaffer(ws, [location.uuid], {
        first_name: `Staff ${i}`,
        schedule: WEEKDAYS_9_TO_18(location.uuid),
      }),
    );
  }
  rooms = [];
  wide = [];
  for (let i = 0; i < MAX; i++) {
    rooms.push(await createResource(ws, location.uuid, { name: `Room ${i}` }));
    wide.push(await createResource(ws, location.uuid, { name: `Basins ${i}`, quantity: UNITS }));
  }
  const service = async (body: Record<string, unknown>) => {
    const res = await ws.api("/services", { method: "POST", body: { price: 1000, ...body } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { uuid: string };
  };
  plain = [];
  roomy = [];
  for (let i = 0; i < MAX; i++) {
    plain.push(await service({ name: `Step ${i}`, duration: 15 }));
    roomy.push(
      await service({
        name: `Room step ${i}`,
        duration: 15,
        resource_uuids: rooms.map((r) => r.uuid),
      }),
    );
  }
  spread = await service({
    name: "Wash",
    duration: 30,
    resource_uuids: wide.map((r) => r.uuid),
  });
});

/** Ten items of ten services, service j with staffer j, two items a day. */
const tenByTen = (services: { uuid: string }[], week: number) =>
  Array.from({ length: MAX }, (_, k) => ({
    datetime_start: `${day(week, Math.floor(k / 2))}T${k % 2 === 0 ? "08" : "12"}:00:00Z`,
    services: services.map((s, j) => ({ service_uuid: s.uuid, staffer_uuid: staffers[j]?.uuid })),
  }));

const cart = (items: unknown[]) =>
  ws.api("/bookings/cart", {
    method: "POST",
    body: { location_uuid: location.uuid, items, ...customer("+49 151 44444444") },
  });

const reserve = (items: unknown[]) =>
  ws.api("/reservations", { method: "POST", body: { location_uuid: location.uuid, items } });

const everything = () =>
  Promise.all(
    ["bookings", "orders", "booking_services", "calendar_entries", "reservations"].map((t) =>
      rowCount(t, ws.id),
    ),
  );

const allUnits = () => [
  ...rooms.map((r) => ({ uuid: r.uuid, quantity: r.quantity })),
  ...wide.map((r) => ({ uuid: r.uuid, quantity: r.quantity })),
];

describe("the maxima fit: calls and statements of a 10 × 10 write", () => {
  it("a 10 × 10 cart of ten staffers: 10 calendars, 10 claims in one hop and 10 confirms", async () => {
    const res = await cart(tenByTen(plain, 0));
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(201);
    const t = timing(res.headers);
    // The calendar entry counts sequential calls (all claims at once: 1); the total counts each.
    expect(t).toMatchObject({ d1: 2, hops: 1, calendars: 10, total: 20 });
    expect(t.statements).toBeLessThanOrEqual(40);
  });

  it("a 10 × 10 cart whose every service needs 10 resources: 20 calendars, 40 calls, one batch under 100 statements", async () => {
    const res = await cart(tenByTen(roomy, 1));
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(201);
    const t = timing(res.headers);
    expect(t).toMatchObject({ d1: 2, hops: 1, calendars: 20, total: 40 });
    // 100 booked services and 1,100 calendar entries (before: 176 statements).
    expect(t.statements).toBeLessThanOrEqual(40);
    expect(await unitOverlaps(ws.id)).toEqual([]);
  });

  it("a 10 × 10 reservation, every service needing 10 resources: the same 20 calendars, under 100 statements", async () => {
    const res = await reserve(tenByTen(roomy, 2));
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(201);
    const t = timing(res.headers);
    expect(t).toMatchObject({ d1: 2, hops: 1, calendars: 20, total: 40 });
    expect(t.statements).toBeLessThanOrEqual(30);
    await expectUnitsInSync(ws.id, allUnits());
    await expectInSync(
      ws.id,
      staffers.map((s) => s.uuid),
    );
  });
});

describe("refused up front: more than 100 calendar calls", () => {
  /** `n` items at one start, each one service needing ten 10-unit resources, staffer k each. */
  const sameStart = (n: number, week: number) =>
    Array.from({ length: n }, (_, k) => ({
      datetime_start: `${day(week)}T09:00:00Z`,
      services: [{ service_uuid: spread.uuid, staffer_uuid: staffers[k]?.uuid }],
    }));

  it("a cart needing 55 calendars (110 calls) is 422 request_too_large: no row, no hold", async () => {
    const before = await everything();
    const res = await cart(sameStart(5, 3));
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body).toEqual({ message: expect.any(String), code: "request_too_large" });
    expect(res.body.message).toContain("55 calendars");
    expect(timing(res.headers)).toMatchObject({ total: 0, calendars: 0 });
    expect(await everything()).toEqual(before);
    await expectUnitsInSync(ws.id, allUnits());
    await expectInSync(
      ws.id,
      staffers.map((s) => s.uuid),
    );
  });

  it("the same as a reservation is 422 too; one item fewer (44 calendars, 88 calls) is booked", async () => {
    const before = await everything();
    const held = await reserve(sameStart(5, 4));
    expect(held.status, JSON.stringify(held.body)).toBe(422);
    expect(held.body.code).toBe("request_too_large");
    expect(await everything()).toEqual(before);

    const res = await cart(sameStart(4, 4));
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(201);
    expect(timing(res.headers)).toMatchObject({ hops: 1, calendars: 44, total: 88 });
    expect(await unitOverlaps(ws.id)).toEqual([]);
    await expectUnitsInSync(ws.id, allUnits());
  });
});

describe("storms: every request stays within its calendar budget", () => {
  it("five concurrent reservations on the same calendars all hold, each within 4 × its calendars and 100 calls", async () => {
    // Each wants one unit of ten 10-unit resources and a staffer, all at one start: they
    // collide on the first free units and spread over the others.
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        reserve([
          {
            datetime_start: `${day(5)}T09:00:00Z`,
            services: [0, 1, 2, 3].map(() => ({ service_uuid: spread.uuid })),
          },
        ]),
      ),
    );
    const seen = JSON.stringify(results.map((r) => [r.status, r.body?.code]));
    expect(
      results.map((r) => r.status),
      seen,
    ).toEqual([201, 201, 201, 201, 201]);
    const timings = results.map((r) => timing(r.headers));
    timings.forEach((t, i) => expectBounded(t, `reservation ${i}: ${JSON.stringify(t)}`));
    // Before the budget these five made 2,232 calls, one of them 741.
    expect(timings.reduce((sum, t) => sum + t.total, 0)).toBeLessThanOrEqual(5 * 100);
    expect(await unitOverlaps(ws.id)).toEqual([]);
    await expectUnitsInSync(ws.id, allUnits());
    await expectInSync(
      ws.id,
      staffers.map((s) => s.uuid),
    );
  });

  it("twelve conflicting bookings at once: one staffer wins or units run out; every request bounded", async () => {
    const date = day(6);
    const book = (staffer: string | undefined) =>
      ws.api("/bookings", {
        method: "POST",
        body: {
          location_uuid: location.uuid,
          service_uuid: spread.uuid,
          ...(staffer ? { staffer_uuid: staffer } : {}),
          reserved_on: `${date}T10:00:00Z`,
          ...customer(),
        },
      });
    // Four for staffer 0 (one wins), eight for anyone (ten staffers, ten units: room for all).
    const results = await Promise.all([
      ...Array.from({ length: 4 }, () => book(staffers[0]?.uuid)),
      ...Array.from({ length: 8 }, () => book(undefined)),
    ]);
    const seen = JSON.stringify(results.map((r) => [r.status, r.body?.code]));
    for (const r of results) {
      expect([201, 409], seen).toContain(r.status);
      if (r.status === 409) expect(r.body.code, seen).toBe("slot_unavailable");
      expectBounded(timing(r.headers), seen);
    }
    // Staffer 0 is one booking's, whichever request took it.
    expect(results.slice(0, 4).filter((r) => r.status === 201).length, seen).toBeLessThanOrEqual(1);
    expect(results.filter((r) => r.status === 201).length, seen).toBeGreaterThanOrEqual(5);
    expect(await unitOverlaps(ws.id)).toEqual([]);
    await expectUnitsInSync(ws.id, allUnits());
    await expectInSync(
      ws.id,
      staffers.map((s) => s.uuid),
    );
  });
});

describe("changes plan again within the budget", () => {
  it("four bookings moved at once onto one time spread over the units, each staffer claimed once", async () => {
    const date = day(8);
    const booked = [];
    for (let k = 0; k < 4; k++) {
      const res = await ws.api("/bookings", {
        method: "POST",
        body: {
          location_uuid: location.uuid,
          service_uuid: spread.uuid,
          staffer_uuid: staffers[k]?.uuid,
          reserved_on: `${date}T${String(8 + k).padStart(2, "0")}:00:00Z`,
          ...customer(),
        },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      booked.push(res.body.uuid as string);
    }
    // All four choose the first free units at 15:00 and collide there: the losers plan
    // again on other units, keeping their staffer's claim (the same entry in every plan).
    const moved = await Promise.all(
      booked.map((uuid) =>
        ws.api(`/bookings/${uuid}/reschedule`, {
          method: "PUT",
          body: { reserved_on: `${date}T14:00:00Z` },
        }),
      ),
    );
    const seen = JSON.stringify(moved.map((r) => [r.status, r.body?.code]));
    expect(
      moved.map((r) => r.status),
      seen,
    ).toEqual([200, 200, 200, 200]);
    for (const r of moved) expectBounded(timing(r.headers), seen);
    expect(await unitOverlaps(ws.id)).toEqual([]);
    await expectUnitsInSync(ws.id, allUnits());
    await expectInSync(
      ws.id,
      staffers.map((s) => s.uuid),
    );
  });
});

describe("the claim budget of one write (calendar/client)", () => {
  /** The calendar namespace with every claim counted per calendar. */
  function countingEnv() {
    const claims = new Map<string, number>();
    let calls = 0;
    const ns = env.CALENDARS;
    const counted = {
      idFromName: (name: string) => ns.idFromName(name),
      get: (id: DurableObjectId) => {
        const stub = ns.get(id);
        const name = [...names].find(([, v]) => v.equals(id))?.[0] ?? "?";
        return new Proxy(stub, {
          get(target, prop) {
            const value = Reflect.get(target, prop);
            // An RPC stub answers every name, `then` included: it must not look like a promise.
            if (typeof value !== "function" || prop === "then") return value;
            return (...args: unknown[]) => {
              calls += 1;
              if (prop === "claim") claims.set(name, (claims.get(name) ?? 0) + 1);
              // Called as a method of the stub: `.apply` on an RPC method would be an RPC call.
              return (target as unknown as Record<string | symbol, (...a: unknown[]) => unknown>)[
                prop
              ]?.(...args);
            };
          },
        });
      },
    };
    const names = new Map<string, DurableObjectId>();
    counted.idFromName = (name: string) => {
      const id = ns.idFromName(name);
      names.set(name, id);
      return id;
    };
    return {
      env: { ...env, CALENDARS: counted as unknown as typeof env.CALENDARS },
      claims,
      calls: () => calls,
    };
  }

  it("a write that would replan forever claims each calendar at most twice, then answers the refusal", async () => {
    const [a, b, c] = staffers.map((s) => s.uuid) as [string, string, string];
    const start = Date.parse(`${day(7)}T09:00:00Z`);
    const entry = (source: string) => ({
      id: crypto.randomUUID(),
      kind: "booking" as const,
      source,
      start,
      end: start + 3_600_000,
    });
    // A rival holds b's time for the whole test.
    const rival = calendarFor(env, ws.id, b);
    expect(
      await rival.claim({
        owner: { workspaceId: ws.id, calendarId: b },
        holdId: "rival-hold",
        entries: [entry("rival")],
        replaces: [],
        checkConflicts: true,
      }),
    ).toEqual({ ok: true });
    const counting = countingEnv();
    const write = {
      claims: [a, b, c].map((calendarId) => ({
        calendarId,
        entries: [entry("write")],
        checkConflicts: true,
      })),
      build: () => [],
      value: "written",
    };
    const db = createDb(await shardHandle());
    await expect(
      commitPlanned(counting.env, db, ws.id, write, undefined, {
        // Always willing to try again, always the same plan: only the budget ends it.
        plan: () => write,
        replan: () => true,
      }),
    ).rejects.toBeInstanceOf(SlotTakenError);
    for (const id of [a, b, c]) {
      expect(counting.claims.get(`${ws.id}/${id}`) ?? 0, id).toBeLessThanOrEqual(2);
    }
    expect(counting.calls()).toBeLessThanOrEqual(4 * 3);
    await rival.release("rival-hold");
    // Nothing left held by the write.
    await expectInSync(ws.id, [a, b, c]);
  });

  it("a batch over 100 statements is refused before any calendar is claimed", async () => {
    const counting = countingEnv();
    const db = createDb(await shardHandle());
    const [a] = staffers.map((s) => s.uuid) as [string];
    const start = Date.parse(`${day(7)}T12:00:00Z`);
    const statements = () =>
      Array.from({ length: D1_MAX_BATCH_STATEMENTS }, () => db.run(sql`select 1`));
    await expect(
      commitWithClaims(
        counting.env,
        db,
        ws.id,
        [
          {
            calendarId: a,
            entries: [
              { id: crypto.randomUUID(), kind: "booking", source: "x", start, end: start + 60_000 },
            ],
            checkConflicts: true,
          },
        ],
        // With the fence guard in front, 101 statements.
        statements as never,
      ),
    ).rejects.toMatchObject({ code: "request_too_large" });
    expect(counting.calls()).toBe(0);
  });
});

describe("the batch guard (instrumented D1)", () => {
  it("refuses a batch of 101 statements before sending any of it; 100 are sent", async () => {
    const hops = new D1Counter();
    const d1 = await shardHandle(hops);
    const fence = () =>
      d1
        .prepare("insert into hold_fences (hold_id, created_at, workspace_id) values (?, ?, ?)")
        .bind(`bounds-${crypto.randomUUID()}`, Date.now(), ws.id);
    const before = await rowCount("hold_fences", ws.id);
    const over = Array.from({ length: D1_MAX_BATCH_STATEMENTS + 1 }, fence);
    await expect(d1.batch(over)).rejects.toBeInstanceOf(TooManyStatementsError);
    await expect(d1.batch(over)).rejects.toMatchObject({ code: "request_too_large" });
    expect(await rowCount("hold_fences", ws.id)).toBe(before);
    expect(hops.placementChecks).toBe(0);
    // The bound counts the caller's statements: the shard's placement check rides along.
    const fits = Array.from({ length: D1_MAX_BATCH_STATEMENTS }, fence);
    expect(await d1.batch(fits)).toHaveLength(D1_MAX_BATCH_STATEMENTS);
    expect(await rowCount("hold_fences", ws.id)).toBe(before + D1_MAX_BATCH_STATEMENTS);
    expect(hops.placementChecks).toBe(1);
  });
});
