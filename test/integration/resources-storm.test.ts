import { beforeAll, describe, expect, it } from "vitest";
import {
  expectInSync,
  expectUnitsInSync,
  liveIntervals,
  overlaps,
  unitOverlaps,
} from "../helpers/calendar";
import { admin, type Client, client, type Received } from "../helpers/http";
import { createResource, type TestResource } from "../helpers/resources";
import { at, createSalon, customer, type Salon } from "../helpers/salon";
import { everyShard } from "../helpers/every-shard";

/**
 * Hundreds of simultaneous writes on four staffers and three resource units
 * (a room with one unit, two basins), all on one day: creates with and
 * without a staffer, carts mixing room and basin services, reschedules,
 * staffer changes, service replacements between services with and without
 * resources, cancels, reservations made then used or deleted, blocked time on
 * one unit, on every unit and on staffers. Nothing may double-book a staffer
 * or a unit, nothing may 5xx, D1's unit entries must be exactly the live
 * booked services' resources (plus blocks), every calendar object must end
 * equal to D1, and time freed by a cancel must be bookable again. The draws
 * are deterministic; which write wins a race is not, so the checks are of
 * invariants, not of counts.
 */
const DAY = "2033-06-14";
let salon: Salon;
let staff: string[];
let keys: Client[];
/** One unit. */
let room: TestResource;
/** Two units. */
let basins: TestResource;
/** 45 min + 15 min buffer; the room. */
let massage: { uuid: string };
/** 30 min; a basin. */
let wash: { uuid: string };
/** 60 min; the room and a basin. */
let combo: { uuid: string };
let cut: { uuid: string };
/** Resources each service needs, sorted, as booking_services.resource_ids must list them. */
let needs: Map<string, string[]>;
const base: string[] = [];

/** Deterministic draws (a 32-bit LCG), so a failing storm can be replayed. */
let seed = 61433;
const draw = (n: number) => {
  seed = (Math.imul(seed, 1_664_525) + 1_013_904_223) >>> 0;
  // The high bits: an LCG's low bits repeat with a short period (bit 0 alternates).
  return Math.floor((seed / 2 ** 32) * n);
};
const pick = <T>(xs: T[]): T => xs[draw(xs.length)] as T;
const hhmm = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
/** A quarter-hour start between `first` and `last` o'clock (every service here ends within an hour). */
const quarter = (last: number, first = 9) =>
  hhmm(first * 60 + 15 * draw(((last - first) * 60) / 15 + 1));
/** Berlin is UTC+2 in June: the salon's 09–18 is 07–16 UTC. */
const local = (time: string, day = DAY) => {
  const [h, m] = time.split(":").map(Number);
  return at(hhmm(((h ?? 0) - 2) * 60 + (m ?? 0)), day);
};
const plus = (time: string, minutes: number) => {
  const [h, m] = time.split(":").map(Number);
  return hhmm((h ?? 0) * 60 + (m ?? 0) + minutes);
};

async function service(body: Record<string, unknown>) {
  const res = await salon.ws.api("/services", { method: "POST", body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { uuid: string };
}

beforeAll(async () => {
  salon = await createSalon(4);
  staff = salon.staffers.map((s) => s.uuid);
  cut = salon.cut;
  room = await createResource(salon.ws, salon.location.uuid, { name: "Room", kind: "room" });
  basins = await createResource(salon.ws, salon.location.uuid, {
    name: "Basin",
    kind: "chair",
    quantity: 2,
  });
  massage = await service({
    name: "Massage",
    duration: 45,
    price: 6000,
    is_pause: true,
    pause: 15,
    resource_uuids: [room.uuid],
  });
  wash = await service({ name: "Wash", duration: 30, price: 1500, resource_uuids: [basins.uuid] });
  combo = await service({
    name: "Combo",
    duration: 60,
    price: 7000,
    resource_uuids: [room.uuid, basins.uuid],
  });
  needs = new Map([
    [cut.uuid, []],
    [massage.uuid, [room.uuid]],
    [wash.uuid, [basins.uuid]],
    [combo.uuid, [room.uuid, basins.uuid].sort()],
  ]);
  keys = [];
  for (let i = 0; i < 8; i++) {
    const key = await admin(`/workspaces/${salon.ws.id}/api-keys`, { method: "POST" });
    keys.push(client(salon.ws.id, key.body.api_key));
  }
  // Three bookings per staffer for the lifecycle writes to act on, at staggered hours so a
  // change of staffer can succeed. The room is taken 09–10, 11–12, 13–14 and 15–16, one basin
  // 10–10:30, 11–12, 12–12:30, 13–13:30 and 15–16; the rest of the day is open.
  const [s0, s1, s2, s3] = staff as [string, string, string, string];
  const plan: [string, string, { uuid: string }][] = [
    [s0, "09:00", massage],
    [s0, "12:00", wash],
    [s0, "15:00", cut],
    [s1, "10:00", wash],
    [s1, "13:00", massage],
    [s1, "16:00", cut],
    [s2, "11:00", combo],
    [s2, "14:00", cut],
    [s2, "17:00", cut],
    [s3, "09:00", cut],
    [s3, "13:00", wash],
    [s3, "15:00", combo],
  ];
  for (const [stafferId, time, booked] of plan) {
    const res = await salon.ws.api("/bookings", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        service_uuid: booked.uuid,
        staffer_uuid: stafferId,
        reserved_on: local(time),
        ...customer(`+49 151 7${String(base.length).padStart(7, "0")}`),
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    base.push(res.body.uuid);
  }
});

interface Outcome {
  kind: string;
  res: Received;
  /** A create's request: to tell, afterwards, refusals of time that stayed free. */
  ask?: { service: string; staffer?: string; start: string };
}
type Op = () => Promise<Outcome[]>;

function storm(): Op[] {
  const ops: Op[] = [];
  const api = () => pick(keys);
  const one =
    (kind: string, send: () => Promise<Received>): Op =>
    async () => [{ kind, res: await send() }];
  const add = (n: number, make: (i: number) => Op) => {
    for (let i = 0; i < n; i++) ops.push(make(i));
  };
  const services = () => [cut, massage, wash, combo];
  add(80, (i) => {
    const staffer = draw(4) === 0 ? undefined : pick(staff);
    const [booked, start] = [pick(services()), local(quarter(17))];
    return async () => {
      const res = await api()("/bookings", {
        method: "POST",
        body: {
          location_uuid: salon.location.uuid,
          service_uuid: booked.uuid,
          staffer_uuid: staffer,
          reserved_on: start,
          ...customer(`+49 151 6${String(i).padStart(7, "0")}`),
        },
      });
      return [{ kind: "create", res, ask: { service: booked.uuid, staffer, start } }];
    };
  });
  add(30, (i) => {
    // Two services back to back (two hours at most), sometimes a second item at the same start.
    // Half of them start at the first time the cart search finds for the two services (so those
    // race each other for the same first fitting time), the others anywhere.
    const listed = draw(2) === 0;
    const anywhere = local(quarter(16));
    const first = { service_uuid: pick(services()).uuid, staffer_uuid: pick(staff) };
    const second = { service_uuid: pick(services()).uuid };
    const extra = draw(3) === 0 ? [{ service_uuid: pick(services()).uuid }] : null;
    return async () => {
      const key = api();
      const out: Outcome[] = [];
      let start = anywhere;
      if (listed) {
        const found = await key(`/locations/${salon.location.uuid}/time-slots/cart`, {
          method: "POST",
          body: { services: [first, second], range_start: DAY, range_end: DAY },
        });
        out.push({ kind: "search", res: found });
        const slot = found.body?.data?.[0]?.dates?.[0]?.slot as { start: string } | undefined;
        if (!slot) return out;
        start = local(slot.start);
      }
      const items = [{ datetime_start: start, services: [first, second] }];
      if (extra) items.push({ datetime_start: start, services: extra });
      const res = await key("/bookings/cart", {
        method: "POST",
        body: {
          location_uuid: salon.location.uuid,
          items,
          ...customer(`+49 152 9${String(i).padStart(7, "0")}`),
        },
      });
      return [...out, { kind: "cart", res }];
    };
  });
  add(40, () => {
    const [booking, start] = [pick(base), local(quarter(17))];
    return one("reschedule", () =>
      api()(`/bookings/${booking}/reschedule`, { method: "PUT", body: { reserved_on: start } }),
    );
  });
  add(30, () => {
    const [booking, staffer] = [pick(base), pick(staff)];
    return one("staffer", () =>
      api()(`/bookings/${booking}/staffer`, { method: "PUT", body: { staffer_uuid: staffer } }),
    );
  });
  add(30, () => {
    const [booking, replacement] = [pick(base), pick([cut, massage, wash])];
    return one("services", () =>
      api()(`/bookings/${booking}/services`, {
        method: "PUT",
        body: { service_uuid: replacement.uuid },
      }),
    );
  });
  // Few cancels: a canceled booking answers every later change with booking_closed, and the
  // changes (which move units) are what this storm is about.
  add(8, () => {
    const booking = pick(base);
    return one("cancel", () =>
      api()(`/bookings/${booking}/status/cancel`, { method: "PUT", body: {} }),
    );
  });
  add(40, (i) => {
    // A customer reserves a time the slot search just listed (so holds win often enough to go
    // on), then (in the same op) books with it, or releases it.
    const staffer = draw(2) === 0 ? undefined : pick(staff);
    const [booked, nth, use] = [pick(services()), draw(1000), draw(2) === 0];
    const held = { service_uuid: booked.uuid, ...(staffer ? { staffer_uuid: staffer } : {}) };
    const search = `/locations/${salon.location.uuid}/time-slots?service_uuid=${booked.uuid}&range_start=${DAY}&range_end=${DAY}${staffer ? `&staffer_uuid=${staffer}` : ""}`;
    return async () => {
      const key = api();
      const listed = await key(search);
      const out: Outcome[] = [{ kind: "search", res: listed }];
      const slots = (listed.body?.dates?.[0]?.slots ?? []) as { start: string }[];
      const slot = slots[nth % Math.max(slots.length, 1)];
      if (listed.status !== 200 || !slot) return out;
      const start = local(slot.start);
      const reserved = await key("/reservations", {
        method: "POST",
        body: {
          location_uuid: salon.location.uuid,
          items: [{ datetime_start: start, services: [held] }],
        },
      });
      out.push({ kind: "reserve", res: reserved });
      if (reserved.status !== 201) return out;
      if (use) {
        const booked = await key("/bookings", {
          method: "POST",
          body: {
            location_uuid: salon.location.uuid,
            reserved_on: start,
            reservation_uuid: reserved.body.uuid,
            ...held,
            ...customer(`+49 151 5${String(i).padStart(7, "0")}`),
          },
        });
        out.push({ kind: "reserve-use", res: booked });
      } else {
        const path = `/reservations/${reserved.body.uuid}`;
        out.push({ kind: "reserve-delete", res: await key(path, { method: "DELETE" }) });
      }
      return out;
    };
  });
  add(16, () => {
    // Maintenance on one unit or on every unit of the room or the basins.
    const resource = pick([room, basins]);
    const unit = draw(3) === 0 ? undefined : 1 + draw(resource.quantity);
    const start = quarter(17);
    const end = plus(start, 15 * (1 + draw(2)));
    return one("resource-block", () =>
      admin(`/workspaces/${salon.ws.id}/resources/${resource.uuid}/blocked-spots`, {
        method: "POST",
        body: { starts_at: local(start), ends_at: local(end), ...(unit ? { unit } : {}) },
      }),
    );
  });
  add(14, () => {
    const [staffer, start] = [pick(staff), quarter(17)];
    return one("staffer-block", () =>
      api()(`/staffers/${staffer}/blocked-spots`, {
        method: "POST",
        body: {
          location_uuid: salon.location.uuid,
          starts_at: local(start),
          ends_at: local(plus(start, 15)),
        },
      }),
    );
  });
  // Shuffle so every kind is in flight at once. Half start together; the rest start within
  // the next second and a half, while hundreds are still in flight: claims that all arrive in
  // the same instant mostly refuse each other (their holds overlap), so without the spread few
  // writes win and the paths after a win (a reservation used, a booking moved) run rarely.
  for (let i = ops.length - 1; i > 0; i--) {
    const j = draw(i + 1);
    [ops[i], ops[j]] = [ops[j] as Op, ops[i] as Op];
  }
  return ops.map((op) => {
    const delay = draw(2) === 0 ? 0 : draw(1500);
    return async () => {
      if (delay > 0) await new Promise((r) => setTimeout(r, delay));
      return op();
    };
  });
}

/** What each kind of request may answer under contention; anything else fails the storm. */
const EXPECTED: Record<string, number[]> = {
  create: [201, 409],
  cart: [201, 409],
  reschedule: [200, 409],
  staffer: [200, 409],
  services: [200, 409],
  cancel: [200, 409],
  search: [200],
  reserve: [201, 409],
  // Nothing else touches a reservation: its own booking or release must succeed.
  "reserve-use": [201],
  "reserve-delete": [204],
  "resource-block": [201, 409],
  "staffer-block": [201, 409],
};

interface EntryRow {
  staffer_id: string | null;
  resource_id: string | null;
  unit: number | null;
  kind: string;
  source_id: string;
  starts_at: number;
  ends_at: number;
  expires_at: number | null;
}
interface ServiceRow {
  booking_id: string;
  service_id: string;
  staffer_id: string;
  reserved_on: number;
  reserved_until: number;
  buffer: number;
  resource_ids: string;
  is_canceled: number;
}

async function d1State(workspaceId: string) {
  const [entries, services, blocks, reservations, stafferBlocks] = await everyShard.batch([
    everyShard
      .prepare(
        `select staffer_id, resource_id, unit, kind, source_id, starts_at, ends_at, expires_at
         from calendar_entries where workspace_id = ?`,
      )
      .bind(workspaceId),
    everyShard
      .prepare(
        `select bs.booking_id, bs.service_id, bs.staffer_id, bs.reserved_on, bs.reserved_until,
              bs.buffer, bs.resource_ids, b.is_canceled
         from booking_services bs join bookings b on b.id = bs.booking_id
        where b.workspace_id = ?`,
      )
      .bind(workspaceId),
    everyShard
      .prepare(
        "select id, resource_id, unit, starts_at, ends_at from resource_blocks where workspace_id = ?",
      )
      .bind(workspaceId),
    everyShard
      .prepare("select id, released_at, expires_at from reservations where workspace_id = ?")
      .bind(workspaceId),
    everyShard
      .prepare(
        "select id, staffer_id, starts_at, ends_at from blocked_spots where workspace_id = ?",
      )
      .bind(workspaceId),
  ]);
  return {
    entries: (entries?.results ?? []) as EntryRow[],
    services: (services?.results ?? []) as ServiceRow[],
    blocks: (blocks?.results ?? []) as {
      id: string;
      resource_id: string;
      unit: number | null;
      starts_at: number;
      ends_at: number;
    }[],
    reservations: (reservations?.results ?? []) as {
      id: string;
      released_at: number | null;
      expires_at: number;
    }[],
    stafferBlocks: (stafferBlocks?.results ?? []) as {
      id: string;
      staffer_id: string;
      starts_at: number;
      ends_at: number;
    }[],
  };
}

const sorted = (xs: string[]) => [...xs].sort();

/**
 * D1's calendar entries against the records they belong to: a live booking's
 * entries are exactly one per service on its staffer and one per resource in
 * its `resource_ids` (on some unit of it), each over the service's time and
 * buffer; a resource block's are its unit (or every unit), a staffer's
 * blocked spot's its staffer; a hold's belong to an unreleased reservation. Returns every difference found, and counts.
 */
function entryMismatches(state: Awaited<ReturnType<typeof d1State>>) {
  const problems: string[] = [];
  const quantity = new Map([
    [room.uuid, room.quantity],
    [basins.uuid, basins.quantity],
  ]);
  const live = state.services.filter((s) => !s.is_canceled);
  const expectedStaffer: string[] = [];
  const expectedUnit: string[] = [];
  for (const s of live) {
    const end = s.reserved_until + s.buffer * 60_000;
    const ids = JSON.parse(s.resource_ids) as string[];
    if (JSON.stringify(sorted(ids)) !== JSON.stringify(needs.get(s.service_id)))
      problems.push(`service of ${s.booking_id} lists resources ${s.resource_ids}`);
    expectedStaffer.push(`${s.staffer_id}|${s.booking_id}|${s.reserved_on}|${end}`);
    for (const id of ids) expectedUnit.push(`${id}|${s.booking_id}|${s.reserved_on}|${end}`);
  }
  const booked = state.entries.filter((e) => e.kind === "booking");
  const stafferBooked = booked.filter((e) => e.staffer_id !== null);
  const unitBooked = booked.filter((e) => e.resource_id !== null);
  const actualStaffer = stafferBooked.map(
    (e) => `${e.staffer_id}|${e.source_id}|${e.starts_at}|${e.ends_at}`,
  );
  const actualUnit = unitBooked.map(
    (e) => `${e.resource_id}|${e.source_id}|${e.starts_at}|${e.ends_at}`,
  );
  const diff = (what: string, expected: string[], actual: string[]) => {
    const left = new Map<string, number>();
    for (const k of expected) left.set(k, (left.get(k) ?? 0) + 1);
    for (const k of actual) left.set(k, (left.get(k) ?? 0) - 1);
    for (const [k, n] of left)
      if (n !== 0) problems.push(`${what} ${k}: ${n > 0 ? "missing" : "extra"} ×${Math.abs(n)}`);
  };
  diff("staffer entry", expectedStaffer, actualStaffer);
  diff("unit entry", expectedUnit, actualUnit);
  for (const e of state.entries.filter((e) => e.resource_id !== null)) {
    const q = quantity.get(e.resource_id ?? "") ?? 0;
    if (e.unit === null || e.unit < 1 || e.unit > q)
      problems.push(`unit entry ${e.source_id} on unit ${e.unit} of ${e.resource_id}`);
  }
  // Blocks: one entry on the unit, or one on each unit when the block names none.
  const blockEntries = state.entries.filter((e) => e.kind === "blocked" && e.resource_id);
  const expectedBlocks = state.blocks.flatMap((b) => {
    const units = b.unit
      ? [b.unit]
      : Array.from({ length: quantity.get(b.resource_id) ?? 0 }, (_, i) => i + 1);
    return units.map((u) => `${b.resource_id}#${u}|${b.id}|${b.starts_at}|${b.ends_at}`);
  });
  diff(
    "unit block",
    expectedBlocks,
    blockEntries.map(
      (e) => `${e.resource_id}#${e.unit}|${e.source_id}|${e.starts_at}|${e.ends_at}`,
    ),
  );
  diff(
    "staffer block",
    state.stafferBlocks.map((b) => `${b.staffer_id}|${b.id}|${b.starts_at}|${b.ends_at}`),
    state.entries
      .filter((e) => e.kind === "blocked" && e.staffer_id)
      .map((e) => `${e.staffer_id}|${e.source_id}|${e.starts_at}|${e.ends_at}`),
  );
  // Holds: only of reservations still open (every one in the storm was used or deleted).
  const open = new Set(state.reservations.filter((r) => r.released_at === null).map((r) => r.id));
  for (const e of state.entries.filter((e) => e.kind === "held"))
    if (!open.has(e.source_id)) problems.push(`held entry of released reservation ${e.source_id}`);
  const resourceCount = live.reduce((n, s) => n + (JSON.parse(s.resource_ids) as []).length, 0);
  return {
    problems,
    counts: {
      liveServices: live.length,
      resourceIdsOfLiveServices: resourceCount,
      unitEntriesOfLiveBookings: unitBooked.length,
      stafferEntriesOfLiveBookings: stafferBooked.length,
      unitBlockEntries: blockEntries.length,
      heldEntries: state.entries.filter((e) => e.kind === "held").length,
      openReservations: open.size,
    },
  };
}

/**
 * Whether D1 shows the staffer and some unit of every resource free over
 * [from, to), not counting the entries of `ignore` (the booking about to go).
 */
function freeInD1(
  state: Awaited<ReturnType<typeof d1State>>,
  stafferId: string,
  resourceIds: string[],
  from: number,
  to: number,
  ignore?: string,
) {
  const now = Date.now();
  const busy = state.entries.filter(
    (e) =>
      e.source_id !== ignore &&
      e.starts_at < to &&
      from < e.ends_at &&
      (e.expires_at === null || e.expires_at > now),
  );
  if (busy.some((e) => e.staffer_id === stafferId)) return false;
  return resourceIds.every((id) => {
    const quantity = id === room.uuid ? room.quantity : basins.quantity;
    const taken = new Set(busy.filter((e) => e.resource_id === id).map((e) => e.unit));
    return taken.size < quantity;
  });
}

async function expectCalendarsRight(label: string) {
  expect(overlaps(await liveIntervals(salon.ws.id)), label).toEqual([]);
  expect(await unitOverlaps(salon.ws.id), label).toEqual([]);
  const { problems, counts } = entryMismatches(await d1State(salon.ws.id));
  expect(problems, `${label} ${JSON.stringify(counts)}`).toEqual([]);
  expect(counts.unitEntriesOfLiveBookings).toBe(counts.resourceIdsOfLiveServices);
  await expectInSync(salon.ws.id, staff);
  await expectUnitsInSync(salon.ws.id, [room, basins]);
  // The management API's audit agrees, unit by unit.
  for (const resource of [room, basins]) {
    const res = await admin(`/workspaces/${salon.ws.id}/resources/${resource.uuid}/calendar`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.in_sync, JSON.stringify(res.body)).toBe(true);
    expect(res.body.units).toHaveLength(resource.quantity);
  }
  return counts;
}

/** Runs the ops together; every answer must be one its kind may give (bodies shown if not). */
async function unleash(ops: Op[]) {
  const results = (await Promise.all(ops.map((op) => op()))).flat();
  const byOutcome = new Map<string, number>();
  for (const { kind, res } of results) {
    const key = `${kind} ${res.status}${res.status >= 400 ? ` ${(res.body as { code?: string } | null)?.code}` : ""}`;
    byOutcome.set(key, (byOutcome.get(key) ?? 0) + 1);
  }
  const summary = JSON.stringify(Object.fromEntries([...byOutcome].sort()));
  const unexpected = results.filter(({ kind, res }) => !EXPECTED[kind]?.includes(res.status));
  expect(
    unexpected.map(({ kind, res }) => `${kind} ${res.status} ${JSON.stringify(res.body)}`),
    summary,
  ).toEqual([]);
  return { results, summary };
}

/** Another day: two hours, 10:00–12:00, where the room and the basins are the bottleneck. */
const RUSH_DAY = "2033-06-15";

/**
 * ~130 writes on the room and the basins within two hours: every create,
 * hold and change asks for a resource, so nearly every race is a race for a
 * unit (the staffers have time to spare).
 */
function rush(bookings: string[]): Op[] {
  const ops: Op[] = [];
  const api = () => pick(keys);
  const start = () => local(quarter(11.75, 10), RUSH_DAY);
  const one =
    (kind: string, send: () => Promise<Received>): Op =>
    async () => [{ kind, res: await send() }];
  const add = (n: number, make: (i: number) => Op) => {
    for (let i = 0; i < n; i++) ops.push(make(i));
  };
  add(50, (i) => {
    const staffer = draw(3) === 0 ? undefined : pick(staff);
    const [booked, when] = [pick([massage, combo, wash, massage]), start()];
    return one("create", () =>
      api()("/bookings", {
        method: "POST",
        body: {
          location_uuid: salon.location.uuid,
          service_uuid: booked.uuid,
          staffer_uuid: staffer,
          reserved_on: when,
          ...customer(`+49 151 2${String(i).padStart(7, "0")}`),
        },
      }),
    );
  });
  add(20, () => {
    const [booking, when] = [pick(bookings), start()];
    return one("reschedule", () =>
      api()(`/bookings/${booking}/reschedule`, { method: "PUT", body: { reserved_on: when } }),
    );
  });
  add(15, () => {
    const [booking, staffer] = [pick(bookings), pick(staff)];
    return one("staffer", () =>
      api()(`/bookings/${booking}/staffer`, { method: "PUT", body: { staffer_uuid: staffer } }),
    );
  });
  add(15, () => {
    const [booking, replacement] = [pick(bookings), pick([cut, massage, wash])];
    return one("services", () =>
      api()(`/bookings/${booking}/services`, {
        method: "PUT",
        body: { service_uuid: replacement.uuid },
      }),
    );
  });
  add(4, () => {
    const booking = pick(bookings);
    return one("cancel", () =>
      api()(`/bookings/${booking}/status/cancel`, { method: "PUT", body: {} }),
    );
  });
  add(15, (i) => {
    const [booked, when, use] = [pick([massage, combo, wash]), start(), draw(2) === 0];
    return async () => {
      const key = api();
      const reserved = await key("/reservations", {
        method: "POST",
        body: {
          location_uuid: salon.location.uuid,
          items: [{ datetime_start: when, services: [{ service_uuid: booked.uuid }] }],
        },
      });
      const out: Outcome[] = [{ kind: "reserve", res: reserved }];
      if (reserved.status !== 201) return out;
      if (use) {
        const held = reserved.body.items[0].services[0];
        const res = await key("/bookings", {
          method: "POST",
          body: {
            location_uuid: salon.location.uuid,
            service_uuid: booked.uuid,
            staffer_uuid: held.staffer_uuid,
            reserved_on: when,
            reservation_uuid: reserved.body.uuid,
            ...customer(`+49 151 1${String(i).padStart(7, "0")}`),
          },
        });
        out.push({ kind: "reserve-use", res });
      } else {
        const path = `/reservations/${reserved.body.uuid}`;
        out.push({ kind: "reserve-delete", res: await key(path, { method: "DELETE" }) });
      }
      return out;
    };
  });
  add(8, () => {
    const resource = pick([room, basins]);
    const unit = draw(3) === 0 ? undefined : 1 + draw(resource.quantity);
    const from = quarter(11.75, 10);
    return one("resource-block", () =>
      admin(`/workspaces/${salon.ws.id}/resources/${resource.uuid}/blocked-spots`, {
        method: "POST",
        body: {
          starts_at: local(from, RUSH_DAY),
          ends_at: local(plus(from, 15), RUSH_DAY),
          ...(unit ? { unit } : {}),
        },
      }),
    );
  });
  for (let i = ops.length - 1; i > 0; i--) {
    const j = draw(i + 1);
    [ops[i], ops[j]] = [ops[j] as Op, ops[i] as Op];
  }
  return ops;
}

describe("a storm of writes on staffers and resource units", () => {
  it("ends with no overlap of staffers or units, no 5xx and every calendar equal to D1", async () => {
    const { results, summary } = await unleash(storm());
    // The storm did contend, on staffers and on units: some writes won, some lost.
    const writes = results.filter(({ kind }) => kind !== "search");
    expect(writes.filter(({ res }) => res.status < 300).length, summary).toBeGreaterThan(40);
    expect(writes.filter(({ res }) => res.status === 409).length, summary).toBeGreaterThan(30);
    // Carts (two services, up to two hours, often with the room) rarely win in the burst; when
    // they do, their rows are checked below with everything else.
    const mustWin = ["create", "reserve", "reserve-use", "reschedule", "staffer", "services"];
    for (const kind of [...mustWin, "cancel", "resource-block", "staffer-block"])
      expect(
        results.filter((r) => r.kind === kind && r.res.status < 300).length,
        `${kind} won some: ${summary}`,
      ).toBeGreaterThan(0);

    const counts = await expectCalendarsRight("after the storm");
    // Reported, not asserted: creates refused at a time that is free once the storm is over.
    // Not wrong in itself (a cancel or a move may have freed it later, or a losing write's hold
    // was in the way at the time), but a high count would mean the burst refuses too much.
    const end = await d1State(salon.ws.id);
    const minutes = new Map([
      [cut.uuid, 60],
      [massage.uuid, 60],
      [wash.uuid, 30],
      [combo.uuid, 60],
    ]);
    const refusedButFree = results.filter(({ kind, res, ask }) => {
      if (kind !== "create" || res.status !== 409 || !ask) return false;
      const from = Date.parse(ask.start);
      const to = from + (minutes.get(ask.service) ?? 0) * 60_000;
      return (ask.staffer ? [ask.staffer] : staff).some((s) =>
        freeInD1(end, s, needs.get(ask.service) ?? [], from, to),
      );
    }).length;
    console.log(
      JSON.stringify({
        resourceStorm: {
          requests: results.length,
          outcomes: JSON.parse(summary),
          counts,
          createsRefusedAtTimesFreeAtTheEnd: refusedButFree,
        },
      }),
    );
    // The room and the basins were really booked through the storm.
    expect(counts.unitEntriesOfLiveBookings, summary).toBeGreaterThan(10);
  }, 180_000);

  it("a rush on the room and the basins within two hours: no unit overlaps, units in sync", async () => {
    // The room 10–11 and 11–12, a basin 10–10:30 and 11–12.
    const [s0, s1, s2, s3] = staff as [string, string, string, string];
    const plan: [string, string, { uuid: string }][] = [
      [s0, "10:00", massage],
      [s1, "10:00", wash],
      [s2, "11:00", cut],
      [s3, "11:00", combo],
    ];
    const bookings: string[] = [];
    for (const [stafferId, time, booked] of plan) {
      const res = await salon.ws.api("/bookings", {
        method: "POST",
        body: {
          location_uuid: salon.location.uuid,
          service_uuid: booked.uuid,
          staffer_uuid: stafferId,
          reserved_on: local(time, RUSH_DAY),
          ...customer(`+49 151 0${String(bookings.length).padStart(7, "0")}`),
        },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      bookings.push(res.body.uuid);
    }
    const { results, summary } = await unleash(rush(bookings));
    expect(results.filter(({ res }) => res.status < 300).length, summary).toBeGreaterThan(5);
    expect(results.filter(({ res }) => res.status === 409).length, summary).toBeGreaterThan(30);
    const counts = await expectCalendarsRight("after the rush");
    // Every room booking of the day starts between 10:00 and 11:45 and lasts at most an hour:
    // the one room can hold at most 2 h 45 min of them.
    const { results: rows } = await everyShard
      .prepare(
        `select starts_at, ends_at from calendar_entries
        where workspace_id = ? and resource_id = ? and kind = 'booking' and starts_at >= ? and ends_at <= ?`,
      )
      .bind(
        salon.ws.id,
        room.uuid,
        Date.parse(local("02:00", RUSH_DAY)),
        Date.parse(local("23:59", RUSH_DAY)),
      )
      .all<{ starts_at: number; ends_at: number }>();
    const roomMinutes = rows.reduce((m, r) => m + (r.ends_at - r.starts_at) / 60_000, 0);
    expect(roomMinutes, JSON.stringify(rows)).toBeLessThanOrEqual(165);
    console.log(
      JSON.stringify({ rush: { requests: results.length, outcomes: JSON.parse(summary), counts } }),
    );
  }, 120_000);

  it("time freed by cancels is bookable again, on the same staffer and units", async () => {
    // Live one-service bookings (those holding a resource first), canceled all at once …
    const before = await d1State(salon.ws.id);
    const perBooking = new Map<string, ServiceRow[]>();
    for (const s of before.services.filter((s) => !s.is_canceled))
      perBooking.set(s.booking_id, [...(perBooking.get(s.booking_id) ?? []), s]);
    const end = (s: ServiceRow) => s.reserved_until + s.buffer * 60_000;
    const resourcesOf = (s: ServiceRow) => JSON.parse(s.resource_ids) as string[];
    const shares = (a: ServiceRow, b: ServiceRow) =>
      resourcesOf(a).some((id) => resourcesOf(b).includes(id));
    const single = [...perBooking.values()]
      .filter((rows) => rows.length === 1)
      .map((rows) => rows[0] as ServiceRow)
      .sort((a, b) => resourcesOf(b).length - resourcesOf(a).length);
    // Left out: a booking under a blocked spot laid over it later (the block stays when the
    // booking goes), and one overlapping an already chosen booking on a shared resource (each
    // one's unit is then free again whatever unit the others take: units are never reassigned).
    const chosen: ServiceRow[] = [];
    for (const s of single) {
      const free = freeInD1(
        before,
        s.staffer_id,
        resourcesOf(s),
        s.reserved_on,
        end(s),
        s.booking_id,
      );
      const apart = chosen.every(
        (c) => !shares(c, s) || end(c) <= s.reserved_on || end(s) <= c.reserved_on,
      );
      if (free && apart && chosen.length < 12) chosen.push(s);
    }
    const summary = JSON.stringify(chosen.map((s) => [s.service_id, s.reserved_on]));
    expect(chosen.length, summary).toBeGreaterThan(2);
    expect(chosen.filter((s) => resourcesOf(s).length > 0).length, summary).toBeGreaterThan(0);
    const canceled = await Promise.all(
      chosen.map((s) =>
        pick(keys)(`/bookings/${s.booking_id}/status/cancel`, { method: "PUT", body: {} }),
      ),
    );
    expect(canceled.map((r) => r.status)).toEqual(chosen.map(() => 200));
    // … and booked again at once, each exactly as it was: same service, staffer and start.
    const after = await d1State(salon.ws.id);
    const again = chosen.filter((s) =>
      freeInD1(after, s.staffer_id, resourcesOf(s), s.reserved_on, end(s)),
    );
    expect(again).toEqual(chosen);
    const rebooked = await Promise.all(
      again.map((s, i) =>
        pick(keys)("/bookings", {
          method: "POST",
          body: {
            location_uuid: salon.location.uuid,
            service_uuid: s.service_id,
            staffer_uuid: s.staffer_id,
            reserved_on: new Date(s.reserved_on).toISOString().replace(".000Z", "Z"),
            ...customer(`+49 151 4${String(i).padStart(7, "0")}`),
          },
        }),
      ),
    );
    expect(
      rebooked.filter((r) => r.status !== 201).map((r) => JSON.stringify(r.body)),
      `${again.length} of ${chosen.length} canceled bookings`,
    ).toEqual([]);
    await expectCalendarsRight("after cancel and rebook");
  }, 60_000);
});
