import type { Line, Terms } from "./load-money";

/**
 * One workspace of `npm run load`: its set-up (a location, six staffers, a till, promocodes, a
 * key per client, three services, a two-unit treatment room, a good, a webhook), its clients'
 * mixed traffic, and the audit of its calendar objects afterwards. Every request goes through
 * one `Sender`, which bounds the requests in flight over all workspaces together.
 */

export type Lifecycle = "reschedule" | "staffer" | "replace" | "complete" | "cancel";
export type Op = "search" | "book" | "cart" | Lifecycle | "order" | "pay" | "get" | "block";

export const ADMIN = "bench-token";
/** Lifecycle operations pick from the most recent open bookings of the workspace's clients. */
export const POOL_SIZE = 32;
export const ROOM_UNITS = 2;
/**
 * How wrangler dev's proxy answers a POST or PUT in flight when it reloads the Worker (seen
 * under this load, mid-run, with no file changed): the request may have been done or not.
 */
const PROXY_LOST = "Your worker restarted mid-request";

/** An answer read whole, with its time on the wire and its Server-Timing. */
export interface Answer {
  status: number;
  text: string;
  ms: number;
  /** D1 round trips the answer reports (Server-Timing `d1;desc="N round trips"`), if any. */
  trips: number | null;
}
export type Sender = (path: string, init?: RequestInit) => Promise<Answer>;

/**
 * Requests to `base`, at most `max` in flight: past a few hundred waiting connections wrangler
 * dev's proxy resets them. The time is taken once a request has its slot, so it is the server's.
 */
export function sender(base: string, max: number): Sender {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (path, init) => {
    if (active >= max) await new Promise<void>((resolve) => waiting.push(resolve));
    else active++;
    try {
      const t = performance.now();
      // An answer that never comes is a failure of the run, not a wait without end.
      const res = await fetch(`${base}${path}`, { ...init, signal: AbortSignal.timeout(60_000) });
      const text = await res.text();
      const trips = /(?:^|,)\s*d1;[^,]*desc="(\d+) round trips"/.exec(
        res.headers.get("server-timing") ?? "",
      );
      return {
        status: res.status,
        text,
        ms: performance.now() - t,
        trips: trips ? Number(trips[1]) : null,
      };
    } finally {
      // The slot passes straight to the next in line, or is freed.
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}

/** What a set of requests did: per operation, latencies, outcomes and D1 round trips of 2xx. */
export class Tally {
  latencies = new Map<Op, number[]>();
  /** Per operation: "status code" → count. */
  outcomes = new Map<Op, Map<string, number>>();
  trips = new Map<Op, number[]>();
  fiveXX = 0;
  networkErrors = 0;
  /** Answers wrangler dev's proxy lost (its 503 "Your worker restarted mid-request"), per operation. */
  lost = new Map<Op, number>();

  lostOf(...ops: Op[]) {
    return ops.reduce((a, op) => a + (this.lost.get(op) ?? 0), 0);
  }

  count(op: Op, key: string) {
    const byOp = this.outcomes.get(op) ?? new Map<string, number>();
    byOp.set(key, (byOp.get(key) ?? 0) + 1);
    this.outcomes.set(op, byOp);
  }

  oks(op: Op, status = "200") {
    return this.outcomes.get(op)?.get(status) ?? 0;
  }

  /** Adds another tally's numbers to this one's. */
  add(other: Tally) {
    for (const [op, l] of other.latencies)
      this.latencies.set(op, [...(this.latencies.get(op) ?? []), ...l]);
    for (const [op, l] of other.trips) this.trips.set(op, [...(this.trips.get(op) ?? []), ...l]);
    for (const [op, byKey] of other.outcomes)
      for (const [key, n] of byKey) for (let i = 0; i < n; i++) this.count(op, key);
    for (const [op, n] of other.lost) this.lost.set(op, (this.lost.get(op) ?? 0) + n);
    this.fiveXX += other.fiveXX;
    this.networkErrors += other.networkErrors;
  }
}

const pick = <T>(list: readonly T[]): T => {
  const item = list[Math.floor(Math.random() * list.length)];
  if (item === undefined) throw new Error("pick from an empty list");
  return item;
};

const json = (body: unknown, headers: Record<string, string>, method = "POST"): RequestInit => ({
  method,
  headers: { ...headers, "content-type": "application/json" },
  body: JSON.stringify(body),
});

const adminH = { authorization: `Bearer ${ADMIN}` };

/**
 * A set-up call: its JSON, or an error naming what failed. A 429 (the management API's limit
 * per address: every workspace's set-up comes from one) waits its Retry-After and goes again.
 */
async function made(send: Sender, path: string, init: RequestInit) {
  for (let attempt = 1; ; attempt++) {
    const answer = await send(path, init);
    if (answer.status === 429 && attempt < 30) {
      await new Promise((r) => setTimeout(r, 1000));
      continue;
    }
    if (answer.status >= 300)
      throw new Error(`set-up ${init.method ?? "GET"} ${path} → ${answer.status}: ${answer.text}`);
    return answer.text ? JSON.parse(answer.text) : null;
  }
}

export type Salon = Awaited<ReturnType<typeof setupSalon>>;

/** A new workspace (its uuid, first key and `shard`): the create puts it on the emptiest shard. */
export const createWorkspace = (send: Sender, name: string) =>
  made(
    send,
    "/api/admin/v1/workspaces",
    json({ name, country: "DE", currency: "EUR", timezone: "UTC" }, adminH),
  ) as Promise<{ uuid: string; api_key: string; shard: string }>;

/** A created workspace as the load needs it, filled through the management and public APIs. */
export async function setupSalon(
  send: Sender,
  ws: Awaited<ReturnType<typeof createWorkspace>>,
  webhookUrl: string,
  clients: number,
) {
  const name = "Load";
  const A = (path: string, body: unknown) =>
    made(send, `/api/admin/v1/workspaces/${ws.uuid}${path}`, json(body, adminH));
  const location = await A("/locations", { name, timezone: "UTC", slot_step: 15 });
  const staffers: string[] = [];
  for (let i = 0; i < 6; i++) {
    const s = await A("/staffers", {
      first_name: `S${i}`,
      location_uuids: [location.uuid],
      permissions: ["access-pos"],
      schedule: [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({
        location_uuid: location.uuid,
        weekday,
        start: "08:00",
        end: "20:00",
      })),
    });
    staffers.push(s.uuid);
  }
  const cash = await A("/accounts", { location_uuid: location.uuid, name: "Till", type: "cash" });
  await A("/promocodes", { code: "LOAD15", discount_percent: 15 });
  await A("/promocodes", { code: "Load7", discount_amount: 700 });
  // One key per client: the rate limit counts per key, as it would for separate front desks.
  const keys = [ws.api_key as string];
  while (keys.length < clients) keys.push((await A("/api-keys", {})).api_key);
  const H = (key: string) => ({ authorization: `Bearer ${key}`, workspace: ws.uuid as string });
  const setup = (path: string, body: unknown) =>
    made(send, `/api/public/v2${path}`, json(body, H(keys[0] ?? "")));
  const cut = await setup("/services", { name: "Cut", duration: 30, price: 3500, pause: 15 });
  const dye = await setup("/services", {
    name: "Dye",
    duration: 60,
    price: 6000,
    price_discount: 5400,
  });
  const room = await A("/resources", {
    location_uuid: location.uuid,
    name: "Treatment room",
    kind: "room",
    quantity: ROOM_UNITS,
  });
  const massage = await setup("/services", {
    name: "Massage",
    duration: 45,
    price: 6000,
    pause: 15,
    resource_uuids: [room.uuid],
  });
  /** What this script asked the catalogue for: price charged (the discount price), length, resources. */
  const catalogue = new Map<string, { price: number; minutes: number; resources: string[] }>([
    [cut.uuid, { price: 3500, minutes: 30, resources: [] }],
    [dye.uuid, { price: 5400, minutes: 60, resources: [] }],
    [massage.uuid, { price: 6000, minutes: 45, resources: [room.uuid] }],
  ]);
  const good = await setup("/goods", {
    name: "Gel",
    article: "G1",
    is_payable: true,
    price: 1299,
    unit: "pcs",
    is_consumable: false,
    initial_stock: {
      is_set: true,
      location_uuid: location.uuid,
      unit_price: 500,
      quantity: 100000,
    },
  });
  await setup("/webhooks", {
    url: webhookUrl,
    events: [
      "booking-created",
      "booking-canceled",
      "booking-rescheduled",
      "booking-completed",
      "booking-staffer-changed",
      "booking-service-replaced",
      "order-created",
      "order-paid",
      "customer-created",
    ],
    tries: 5,
    timeout: 5,
  });
  return {
    id: ws.uuid as string,
    /** Where the create answer says its data lives. */
    shard: ws.shard as string,
    keys,
    H,
    location: location.uuid as string,
    staffers,
    cash: cash.uuid as string,
    cut: cut.uuid as string,
    dye: dye.uuid as string,
    massage: massage.uuid as string,
    room: room.uuid as string,
    good: good.uuid as string,
    catalogue,
    /** Recent bookings of its clients: the records the lifecycle operations share. */
    pool: [] as string[],
    /** Every booking a 201 answered, by uuid. */
    created: new Set<string>(),
    /** POS orders as this script sent them, by uuid, with the total the response showed. */
    sentOrders: new Map<string, { lines: Line[]; terms: Terms; answered: number }>(),
    races: 0,
    tally: new Tally(),
  };
}

const day0 = Date.UTC(2031, 0, 6);
/** A start on one of the first `days` days (massages use few, so the room's units contend). */
const randomStart = (days = 30) => {
  const day = Math.floor(Math.random() * days);
  const slot = Math.floor(Math.random() * 44); // 08:00..18:45 in 15 min steps
  return new Date(day0 + day * 86_400_000 + 8 * 3_600_000 + slot * 900_000)
    .toISOString()
    .replace(".000Z", "Z");
};
const customerOf = (i: number) => ({
  customer_phone: `+49151${String(1000000 + i).padStart(8, "0")}`,
  customer_first_name: "Load",
});

/**
 * The salon's clients until `deadline`: searching, booking and selling, and the booking
 * lifecycle (reschedule, change staffer, replace service, complete, cancel) on the shared pool
 * of recent open bookings, sometimes two or three operations on one booking at once.
 */
export async function driveSalon(send: Sender, salon: Salon, deadline: number) {
  const { tally, pool, location, staffers, cash, cut, dye, massage } = salon;
  const share = (ids: string[]) => {
    for (const id of ids) salon.created.add(id);
    pool.push(...ids);
    if (pool.length > POOL_SIZE) pool.splice(0, pool.length - POOL_SIZE);
  };
  /**
   * A booking that was completed or canceled leaves the pool, so the
   * lifecycle operations keep acting on open bookings; "booking_closed"
   * then counts requests that were already in flight when it closed.
   */
  const closed = (id: string, answer: { status: number }) => {
    const at = pool.indexOf(id);
    if (answer.status === 200 && at >= 0) pool.splice(at, 1);
  };
  const timed = async (op: Op, path: string, init: RequestInit) => {
    let answer: Answer;
    try {
      answer = await send(path, init);
    } catch (error) {
      tally.networkErrors++;
      tally.count(op, `network ${(error as Error).message}`);
      return { status: 0, body: null };
    }
    const { status, text } = answer;
    tally.latencies.set(op, [...(tally.latencies.get(op) ?? []), answer.ms]);
    if (status < 300 && answer.trips !== null)
      tally.trips.set(op, [...(tally.trips.get(op) ?? []), answer.trips]);
    let body = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      // Not JSON (a 5xx page): counted by status alone.
    }
    if (status === 503 && text.startsWith(PROXY_LOST)) {
      // wrangler dev's proxy, not the Worker: the request may or may not have been done.
      tally.count(op, "503 proxy lost the answer");
      tally.lost.set(op, (tally.lost.get(op) ?? 0) + 1);
      return { status, body: null };
    }
    tally.count(op, status < 300 ? `${status}` : `${status} ${body?.code ?? "-"}`);
    if (status >= 500) {
      tally.fiveXX++;
      console.error(op, status, text.slice(0, 300));
    }
    return { status, body: status < 300 ? body : null };
  };

  await Promise.all(
    salon.keys.map(async (key, client) => {
      const api = (path: string, body: unknown, method = "POST") =>
        [`/api/public/v2${path}`, json(body, salon.H(key), method)] as const;
      const lifecycle: Record<Lifecycle, (id: string) => Promise<unknown>> = {
        reschedule: (id) =>
          timed(
            "reschedule",
            ...api(`/bookings/${id}/reschedule`, { reserved_on: randomStart() }, "PUT"),
          ),
        staffer: (id) =>
          timed(
            "staffer",
            ...api(`/bookings/${id}/staffer`, { staffer_uuid: pick(staffers) }, "PUT"),
          ),
        replace: (id) =>
          timed(
            "replace",
            ...api(`/bookings/${id}/services`, { service_uuid: pick([cut, dye, massage]) }, "PUT"),
          ),
        complete: async (id) =>
          closed(
            id,
            await timed(
              "complete",
              ...api(`/bookings/${id}/status/complete`, { account_uuid: cash }, "PUT"),
            ),
          ),
        cancel: async (id) =>
          closed(
            id,
            await timed(
              "cancel",
              ...api(`/bookings/${id}/status/cancel`, { cancel_reason: "postponed" }, "PUT"),
            ),
          ),
      };
      // Moving and reassigning are more frequent than closing, so the pool stays mostly open.
      const weighted: Lifecycle[] = [
        "reschedule",
        "reschedule",
        "staffer",
        "staffer",
        "replace",
        "replace",
        "complete",
        "cancel",
      ];
      let n = 0;
      while (Date.now() < deadline) {
        n++;
        const roll = Math.random();
        if (roll < 0.15) {
          const from = randomStart().slice(0, 10);
          const searched = n % 3 === 0 ? massage : cut;
          await timed(
            "search",
            `/api/public/v2/locations/${location}/time-slots?service_uuid=${searched}&range_start=${from}&range_end=${from}`,
            { headers: salon.H(key) },
          );
        } else if (roll < 0.35) {
          const service = pick([cut, dye, massage]);
          const r = await timed(
            "book",
            ...api("/bookings", {
              location_uuid: location,
              service_uuid: service,
              staffer_uuid: pick(staffers),
              reserved_on: randomStart(service === massage ? 3 : 30),
              ...customerOf(client * 100000 + n),
            }),
          );
          if (r.status === 201) share([r.body.uuid]);
        } else if (roll < 0.42) {
          const r = await timed(
            "cart",
            ...api("/bookings/cart", {
              location_uuid: location,
              ...customerOf(client),
              items: [
                {
                  datetime_start: randomStart(n % 2 === 0 ? 3 : 30),
                  services: [{ service_uuid: cut }, { service_uuid: n % 2 === 0 ? massage : dye }],
                },
              ],
            }),
          );
          if (r.status === 201) share(r.body.bookings.map((b: { uuid: string }) => b.uuid));
        } else if (roll < 0.72 && pool.length > 0) {
          await lifecycle[pick(weighted)](pick(pool));
        } else if (roll < 0.8 && pool.length > 0) {
          // Two requests on one booking at once (sometimes three), different operations.
          const id = pick(pool);
          salon.races++;
          const ops = [...new Set(Array.from({ length: 2 + (n % 2) }, () => pick(weighted)))];
          if (ops.length < 2) ops.push(ops[0] === "complete" ? "cancel" : "complete");
          await Promise.all(ops.map((op) => lifecycle[op](id)));
        } else if (roll < 0.95) {
          const variant = n % 4;
          const terms: Terms = {
            mode: variant === 1 ? "fixed" : variant === 2 ? null : "percent",
            amount: variant === 1 ? 100 + ((n * 37) % 1900) : 0,
            percent: variant === 0 || variant === 3 ? n % 30 : null,
            promocode: variant === 2 ? "load15" : variant === 3 ? "LOAD7" : null,
          };
          const goodQty = 1 + (n % 3);
          const lines: Line[] = [
            { unit: 1299, qty: goodQty, taxBp: null },
            { unit: 3500, qty: 1, taxBp: null },
          ];
          const r = await timed(
            "order",
            ...api("/orders", {
              location_uuid: location,
              staffer_uuid: staffers[client % staffers.length],
              goods: [{ good_uuid: salon.good, price: 1299, quantity: goodQty }],
              services: [{ service_uuid: cut, price: 3500, quantity: 1 }],
              ...(terms.mode === "percent"
                ? { discount_mode: "percent", discount_percent: terms.percent }
                : {}),
              ...(terms.mode === "fixed"
                ? { discount_mode: "fixed", discount_amount: terms.amount }
                : {}),
              ...(terms.promocode ? { promocode: terms.promocode } : {}),
            }),
          );
          if (r.status === 201) {
            salon.sentOrders.set(r.body.uuid, { lines, terms, answered: r.body.total });
            await timed("pay", ...api(`/orders/${r.body.uuid}/pay`, { account_uuid: cash }));
          }
        } else if (roll < 0.97) {
          await timed("get", "/api/public/v2/locations", { headers: salon.H(key) });
        } else {
          // Maintenance on one unit of the room or on both, 15 or 30 minutes, where massages are.
          const start = randomStart(3);
          const unit = n % 3 === 0 ? undefined : 1 + (n % ROOM_UNITS);
          await timed(
            "block",
            `/api/admin/v1/workspaces/${salon.id}/resources/${salon.room}/blocked-spots`,
            json(
              {
                starts_at: start,
                ends_at: new Date(Date.parse(start) + (1 + (n % 2)) * 900_000)
                  .toISOString()
                  .replace(".000Z", "Z"),
                ...(unit ? { unit } : {}),
              },
              adminH,
            ),
          );
        }
      }
    }),
  );
}

export interface AuditResult {
  in_sync: boolean;
  only_in_calendar: unknown[];
  only_in_d1: unknown[];
}

/** Every staffer's and every room unit's calendar object against D1 (at rest: no holds). */
export async function auditSalon(send: Sender, salon: Salon) {
  const listed = await made(send, "/api/public/v2/staffers?per_page=100", {
    headers: salon.H(salon.keys[0] ?? ""),
  });
  const audits: { staffer: string; status: number; audit: AuditResult | null }[] = [];
  for (const { uuid: staffer } of listed.data as { uuid: string }[]) {
    const path = `/api/admin/v1/workspaces/${salon.id}/staffers/${staffer}/calendar`;
    const audit = await made(send, path, { headers: adminH }).catch(() => null);
    audits.push({ staffer, status: audit ? 200 : 0, audit });
  }
  const room = (await made(
    send,
    `/api/admin/v1/workspaces/${salon.id}/resources/${salon.room}/calendar`,
    { headers: adminH },
  ).catch(() => null)) as { in_sync: boolean; units: (AuditResult & { unit: number })[] } | null;
  const unitsOutOfSync = room
    ? room.units.filter((u) => !u.in_sync)
    : Array.from({ length: ROOM_UNITS }, (_, i) => ({
        unit: i + 1,
        in_sync: false,
        only_in_calendar: [] as unknown[],
        only_in_d1: [] as unknown[],
      }));
  return {
    staffers: audits.length,
    outOfSync: audits.filter((a) => !a.audit?.in_sync),
    roomAnswered: room !== null,
    unitsOutOfSync,
  };
}
