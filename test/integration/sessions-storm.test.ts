import { beforeAll, describe, expect, it } from "vitest";
import { expectInSync, expectUnitsInSync } from "../helpers/calendar";
import { admin, type Client, client, type Received } from "../helpers/http";
import { createResource, type TestResource } from "../helpers/resources";
import { at, createSalon, customer, type Salon } from "../helpers/salon";
import {
  overbookedSessions,
  seatMismatches,
  seatOverlaps,
  unitSeatProblems,
} from "../helpers/sessions";

/**
 * The booking storm with group services added: ~140 simultaneous writes,
 * creates (one-to-one and group, with and without a staffer, 1–3 seats, most
 * of them at a few session starts so they fight for the same seats), carts,
 * reservations then bookings of them, reschedules and staffer changes of
 * seats between sessions, cancels and blocked time, on four staffers and a
 * one-unit room a workshop needs. At rest: no 5xx, no session over its
 * capacity, no overlap but seats of one session (staffers and the room), each
 * session on one unit, the entries' seats equal to the live bookings'
 * quantities, and every calendar object equal to D1.
 */
const DAY = "2033-07-12";
let salon: Salon;
let staff: string[];
let keys: Client[];
let room: TestResource;
/** 60 min, 4 seats. */
let yoga: { uuid: string };
/** 60 min, 3 seats, the room. */
let workshop: { uuid: string };
const base: string[] = [];

/** Deterministic draws (a 32-bit LCG), so a failing storm can be replayed. */
let seed = 52117;
const draw = (n: number) => {
  seed = (Math.imul(seed, 1_664_525) + 1_013_904_223) >>> 0;
  return Math.floor((seed / 2 ** 32) * n);
};
const pick = <T>(xs: T[]): T => xs[draw(xs.length)] as T;
const hhmm = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
/** A quarter-hour start between 09:00 and `last` o'clock. */
const quarter = (last: number) => hhmm(9 * 60 + 15 * draw(((last - 9) * 60) / 15 + 1));
/** Berlin is UTC+2 in July: the salon's 09–18 is 07–16 UTC. */
const local = (time: string) => {
  const [h, m] = time.split(":").map(Number);
  return at(hhmm(((h ?? 0) - 2) * 60 + (m ?? 0)), DAY);
};
/** Where group bookings gather: a few starts, so they contend for the same seats. */
const SESSION_STARTS = ["10:00", "11:00", "13:00", "14:00"];
const startFor = (group: boolean) =>
  local(group && draw(4) !== 0 ? pick(SESSION_STARTS) : quarter(17));

async function service(body: Record<string, unknown>) {
  const res = await salon.ws.api("/services", { method: "POST", body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { uuid: string };
}

beforeAll(async () => {
  salon = await createSalon(4);
  staff = salon.staffers.map((s) => s.uuid);
  room = await createResource(salon.ws, salon.location.uuid, { name: "Studio", kind: "room" });
  yoga = await service({ name: "Yoga", duration: 60, price: 2000, capacity: 4 });
  workshop = await service({
    name: "Workshop",
    duration: 60,
    price: 4500,
    capacity: 3,
    resource_uuids: [room.uuid],
  });
  keys = [];
  for (let i = 0; i < 8; i++) {
    const key = await admin(`/workspaces/${salon.ws.id}/api-keys`, { method: "POST" });
    keys.push(client(salon.ws.id, key.body.api_key));
  }
  // Bookings for the lifecycle writes to act on: one-to-one cuts and seats of sessions.
  const [s0, s1, s2, s3] = staff as [string, string, string, string];
  const plan: [string, string, string, number][] = [
    [s0, "09:00", salon.cut.uuid, 1],
    [s0, "11:00", yoga.uuid, 2],
    [s0, "15:00", salon.cut.uuid, 1],
    [s1, "11:00", yoga.uuid, 1],
    [s1, "13:00", workshop.uuid, 2],
    [s1, "16:00", salon.cut.uuid, 1],
    [s2, "10:00", yoga.uuid, 3],
    [s2, "14:00", salon.cut.uuid, 1],
    [s3, "09:00", salon.cut.uuid, 1],
    [s3, "14:00", yoga.uuid, 1],
    [s3, "16:00", workshop.uuid, 1],
  ];
  for (const [stafferId, time, serviceId, quantity] of plan) {
    const res = await salon.ws.api("/bookings", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        service_uuid: serviceId,
        staffer_uuid: stafferId,
        reserved_on: local(time),
        quantity,
        ...customer(`+49 151 5${String(base.length).padStart(7, "0")}`),
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    base.push(res.body.uuid);
  }
});

type Op = () => Promise<{ kind: string; res: Received }[]>;

/**
 * ~140 requests (it was ~270: the pool's calls get dearer the more a file makes, ~60 s). Half
 * still overfills: with the Calendar's seat check loosened by one seat (seat-count.ts,
 * `> s.capacity + 1`) it ended with a 4-seat session holding 5.
 */
function storm(): Op[] {
  const ops: Op[] = [];
  const api = () => pick(keys);
  const add = (n: number, make: (i: number) => Op) => {
    for (let i = 0; i < n; i++) ops.push(make(i));
  };
  const one =
    (kind: string, send: () => Promise<Received>): Op =>
    async () => [{ kind, res: await send() }];
  const group = () => pick([yoga, yoga, workshop]);
  add(60, (i) => {
    const isGroup = draw(4) !== 0;
    const booked = isGroup ? group() : salon.cut;
    const staffer = draw(4) === 0 ? undefined : pick(staff);
    const start = startFor(isGroup);
    const quantity = isGroup ? 1 + draw(3) : undefined;
    return one("create", () =>
      api()("/bookings", {
        method: "POST",
        body: {
          location_uuid: salon.location.uuid,
          service_uuid: booked.uuid,
          staffer_uuid: staffer,
          reserved_on: start,
          quantity,
          ...customer(`+49 151 6${String(i).padStart(7, "0")}`),
        },
      }),
    );
  });
  add(10, (i) => {
    const start = startFor(true);
    const [first, staffer, quantity] = [group(), pick(staff), 1 + draw(2)];
    return one("cart", () =>
      api()("/bookings/cart", {
        method: "POST",
        body: {
          location_uuid: salon.location.uuid,
          items: [
            {
              datetime_start: start,
              services: [
                { service_uuid: first.uuid, staffer_uuid: staffer, quantity },
                { service_uuid: salon.cut.uuid },
              ],
            },
          ],
          ...customer(`+49 152 6${String(i).padStart(7, "0")}`),
        },
      }),
    );
  });
  add(10, (i) => {
    const start = startFor(true);
    const [booked, staffer, quantity, use] = [group(), pick(staff), 1 + draw(3), draw(3) !== 0];
    return async () => {
      const key = api();
      const held = await key("/reservations", {
        method: "POST",
        body: {
          location_uuid: salon.location.uuid,
          items: [
            {
              datetime_start: start,
              services: [{ service_uuid: booked.uuid, staffer_uuid: staffer, quantity }],
            },
          ],
        },
      });
      const out = [{ kind: "reservation", res: held }];
      if (held.status !== 201) return out;
      const res = use
        ? await key("/bookings", {
            method: "POST",
            body: {
              location_uuid: salon.location.uuid,
              service_uuid: booked.uuid,
              reserved_on: start,
              quantity,
              reservation_uuid: held.body.uuid,
              ...customer(`+49 151 7${String(i).padStart(7, "0")}`),
            },
          })
        : await key(`/reservations/${held.body.uuid}`, { method: "DELETE" });
      return [...out, { kind: use ? "book-reservation" : "release", res }];
    };
  });
  add(22, () => {
    const [booking, start] = [pick(base), startFor(draw(2) === 0)];
    return one("reschedule", () =>
      api()(`/bookings/${booking}/reschedule`, { method: "PUT", body: { reserved_on: start } }),
    );
  });
  add(18, () => {
    const [booking, staffer] = [pick(base), pick(staff)];
    return one("staffer", () =>
      api()(`/bookings/${booking}/staffer`, { method: "PUT", body: { staffer_uuid: staffer } }),
    );
  });
  add(10, () => {
    const booking = pick(base);
    return one("cancel", () =>
      api()(`/bookings/${booking}/status/cancel`, { method: "PUT", body: {} }),
    );
  });
  add(5, () => {
    const [staffer, start] = [pick(staff), quarter(17)];
    const [h, m] = start.split(":").map(Number);
    const end = hhmm((h ?? 0) * 60 + (m ?? 0) + 15);
    return one("blocked", () =>
      api()(`/staffers/${staffer}/blocked-spots`, {
        method: "POST",
        body: { location_uuid: salon.location.uuid, starts_at: local(start), ends_at: local(end) },
      }),
    );
  });
  // Shuffle so every kind is in flight at once.
  for (let i = ops.length - 1; i > 0; i--) {
    const j = draw(i + 1);
    [ops[i], ops[j]] = [ops[j] as Op, ops[i] as Op];
  }
  return ops;
}

describe("a storm of writes with group sessions", () => {
  it("ends with no overbooked session, no overlap, no 5xx and every calendar equal to D1", async () => {
    const results = (await Promise.all(storm().map((op) => op()))).flat();
    const byOutcome = new Map<string, number>();
    for (const { kind, res } of results) {
      const key = `${kind} ${res.status}${res.status >= 400 ? ` ${(res.body as { code?: string } | null)?.code}` : ""}`;
      byOutcome.set(key, (byOutcome.get(key) ?? 0) + 1);
    }
    const summary = JSON.stringify(Object.fromEntries([...byOutcome].sort()));
    console.log(JSON.stringify({ storm: { requests: results.length, outcomes: summary } }));
    // A class that needs the room keeps its staffer: handing it over is 422 on staffer_uuid.
    const keepsStaffer = (kind: string, res: Received) =>
      kind === "staffer" &&
      res.status === 422 &&
      Object.keys((res.body as { errors?: object }).errors ?? {}).join() === "staffer_uuid";
    const unexpected = results.filter(
      ({ kind, res }) =>
        ![200, 201, 204, 404, 409].includes(res.status) && !keepsStaffer(kind, res),
    );
    expect(
      unexpected.map(({ kind, res }) => `${kind} ${res.status} ${JSON.stringify(res.body)}`),
      summary,
    ).toEqual([]);
    // The storm did contend: seats were won and sessions filled.
    expect(results.filter(({ res }) => res.status < 300).length, summary).toBeGreaterThan(15);
    expect(byOutcome.get("create 409 session_full") ?? 0, summary).toBeGreaterThan(0);

    expect(await overbookedSessions(salon.ws.id)).toEqual([]);
    expect(await seatOverlaps(salon.ws.id)).toEqual([]);
    expect(await unitSeatProblems(salon.ws.id)).toEqual([]);
    expect(await seatMismatches(salon.ws.id)).toEqual([]);
    await expectInSync(salon.ws.id, staff);
    await expectUnitsInSync(salon.ws.id, [{ uuid: room.uuid, quantity: 1 }]);
  }, 120_000);
});
