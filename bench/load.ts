import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { type DevServer, queryD1, startDevServer } from "./server";
import { percentile } from "./stats";

/**
 * `npm run load`: a mixed workload from many clients against `wrangler dev`
 * for a fixed time. Besides searching, booking and selling, every client
 * runs the booking lifecycle (reschedule, change staffer, replace service,
 * complete, cancel) on one shared pool of recent open bookings, sometimes two or
 * three operations on one booking at once, so the concurrency guards are
 * exercised. The salon has a treatment room with two units that massages
 * need (one unit each for the massage and its buffer), booked mostly in the
 * first days so its units are contended, and now and then blocked for
 * maintenance (one unit or both). Afterwards: every staffer's and every room
 * unit's calendar object is audited against D1, and invariants are checked
 * from the database: no overlapping live bookings per staffer and per room
 * unit, D1's calendar entries (staffers' and units') equal the live booked
 * services and their resource_ids, the room's block entries equal its
 * blocks, no booking
 * both completed and canceled, money credited at most once per booking, every
 * outbox event delivered once to a local receiver, and every order's total
 * equal to the amount this script computes on its own from the line data
 * (the arithmetic of docs/decisions.md, re-implemented below, not the
 * product's pricing function). Any violation or 5xx fails the run.
 */
// Each client has at most 3 requests in flight (a race), so 12 clients stay
// far below the few hundred waiting connections at which wrangler dev resets.
const PORT = 8797;
/** Webhook retries a second apart: the run waits for every event to arrive. */
export const LOAD_VARS = { WEBHOOK_RETRY_BASE_SECONDS: "1" };
const ADMIN = "bench-token";
/** Lifecycle operations pick from the most recent open bookings of all clients. */
const POOL_SIZE = 32;

type Lifecycle = "reschedule" | "staffer" | "replace" | "complete" | "cancel";
type Op = "search" | "book" | "cart" | Lifecycle | "order" | "pay" | "get" | "block";
const latencies = new Map<Op, number[]>();
/** Per operation: "status code" → count. */
const outcomes = new Map<Op, Map<string, number>>();
let fiveXX = 0;
let networkErrors = 0;

// ---------------------------------------------------------------------------
// Money, computed independently (docs/decisions.md "Point of sale"): line
// totals → manual discount (fixed, or percent of the base, half-up) →
// promocode on what is left → taxes per line on the discounted line amounts
// (reductions spread in proportion to line totals, largest remainder) → total.

/** round(a × b / c) with halves going up, exact for non-negative integers. */
const halfUp = (a: number, b: number, c: number) =>
  Number((2n * BigInt(a) * BigInt(b) + BigInt(c)) / (2n * BigInt(c)));

/** `amount` split over `weights` proportionally; the pieces add up to `amount`. */
function spread(amount: number, weights: number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (sum === 0) return weights.map(() => 0);
  const shares = weights.map((w, i) => ({
    i,
    floor: Math.floor(Number((BigInt(amount) * BigInt(w)) / BigInt(sum))),
    rest: Number((BigInt(amount) * BigInt(w)) % BigInt(sum)),
  }));
  let left = amount - shares.reduce((a, s) => a + s.floor, 0);
  for (const s of [...shares].sort((a, b) => b.rest - a.rest || a.i - b.i))
    if (left-- > 0) s.floor += 1;
  return shares.map((s) => s.floor);
}

interface Line {
  unit: number;
  qty: number;
  taxBp: number | null;
}
interface Terms {
  mode: "fixed" | "percent" | null;
  amount: number;
  percent: number | null;
  promocode: string | null;
}
/** The promocodes this script creates, by lower-case code. */
const PROMOCODES: Record<string, { percent: number | null; amount: number | null }> = {
  load15: { percent: 15, amount: null },
  load7: { percent: null, amount: 700 },
};

function expectedTotals(lines: Line[], terms: Terms) {
  const lineTotals = lines.map((l) => l.unit * l.qty);
  const base = lineTotals.reduce((a, b) => a + b, 0);
  const discount =
    terms.mode === "percent"
      ? Math.min(halfUp(base, terms.percent ?? 0, 100), base)
      : Math.min(terms.amount, base);
  const left = base - discount;
  const rule = terms.promocode ? PROMOCODES[terms.promocode.toLowerCase()] : undefined;
  const promo = !rule
    ? 0
    : rule.percent !== null
      ? Math.min(halfUp(left, rule.percent, 100), left)
      : Math.min(rule.amount ?? 0, left);
  const cuts = spread(discount + promo, lineTotals);
  const tax = lines.reduce(
    (sum, l, i) =>
      sum + (l.taxBp === null ? 0 : halfUp((lineTotals[i] ?? 0) - (cuts[i] ?? 0), l.taxBp, 10_000)),
    0,
  );
  return { promo, total: left - promo + tax };
}

// ---------------------------------------------------------------------------

/** A local webhook receiver (on a spare port): which event ids arrived, and how often. */
async function startReceiver() {
  const seen = new Map<string, number>();
  const server = createServer((req, res) => {
    const id = String(req.headers["webhook-id"] ?? "");
    req.resume();
    req.on("end", () => {
      seen.set(id, (seen.get(id) ?? 0) + 1);
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { seen, url: `http://127.0.0.1:${port}/hook`, close: () => server.close() };
}

const pick = <T>(list: readonly T[]): T => {
  const item = list[Math.floor(Math.random() * list.length)];
  if (item === undefined) throw new Error("pick from an empty list");
  return item;
};

/**
 * The run; it stops the server before reading D1 (a given `server` too, started with
 * LOAD_VARS; the test suite's shared one, which other modes still use, has a stop that does
 * nothing). Returns how many invariants failed.
 */
export async function runLoad({
  seconds: SECONDS = Number(process.env.LOAD_SECONDS ?? 20),
  clients: CLIENTS = Number(process.env.LOAD_CLIENTS ?? 12),
  plainGets = 200,
  server: given,
}: {
  seconds?: number;
  clients?: number;
  /** Plain authenticated GETs, alone, for the yardstick. */
  plainGets?: number;
  server?: DevServer;
} = {}): Promise<number> {
  latencies.clear();
  outcomes.clear();
  fiveXX = 0;
  networkErrors = 0;
  const receiver = await startReceiver();
  const server = given ?? (await startDevServer(PORT, LOAD_VARS));
  const base = server.base;
  try {
    const post = (path: string, body: unknown, headers: Record<string, string>, method = "POST") =>
      fetch(`${base}${path}`, {
        method,
        headers: { ...headers, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const adminH = { authorization: `Bearer ${ADMIN}` };
    const ws = await (
      await post(
        "/api/admin/v1/workspaces",
        { name: "Load", country: "DE", currency: "EUR", timezone: "UTC" },
        adminH,
      )
    ).json();
    const A = (path: string, body: unknown) =>
      post(`/api/admin/v1/workspaces/${ws.uuid}${path}`, body, adminH).then((r) => r.json());
    const location = await A("/locations", { name: "Load", timezone: "UTC", slot_step: 15 });
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
    while (keys.length < CLIENTS) keys.push((await A("/api-keys", {})).api_key);
    const H = (key: string) => ({ authorization: `Bearer ${key}`, workspace: ws.uuid });
    const P =
      (key: string) =>
      (path: string, body: unknown, method = "POST") =>
        post(`/api/public/v2${path}`, body, H(key), method);
    const setup = P(keys[0] ?? "");
    const cut = await (
      await setup("/services", { name: "Cut", duration: 30, price: 3500, pause: 15 })
    ).json();
    const dye = await (
      await setup("/services", { name: "Dye", duration: 60, price: 6000, price_discount: 5400 })
    ).json();
    const ROOM_UNITS = 2;
    const room = await A("/resources", {
      location_uuid: location.uuid,
      name: "Treatment room",
      kind: "room",
      quantity: ROOM_UNITS,
    });
    const massage = await (
      await setup("/services", {
        name: "Massage",
        duration: 45,
        price: 6000,
        pause: 15,
        resource_uuids: [room.uuid],
      })
    ).json();
    if (!room.uuid || !massage.uuid) throw new Error("the room or the massage was not created");
    /** What this script asked the catalogue for: price charged (the discount price), length, resources. */
    const catalogue = new Map<string, { price: number; minutes: number; resources: string[] }>([
      [cut.uuid, { price: 3500, minutes: 30, resources: [] }],
      [dye.uuid, { price: 5400, minutes: 60, resources: [] }],
      [massage.uuid, { price: 6000, minutes: 45, resources: [room.uuid] }],
    ]);
    const good = await (
      await setup("/goods", {
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
      })
    ).json();
    await setup("/webhooks", {
      url: receiver.url,
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

    /** Recent bookings of every client: the records the lifecycle operations share. */
    const pool: string[] = [];
    const share = (ids: string[]) => {
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
    let races = 0;
    /** POS orders as this script sent them, by uuid, with the total the response showed. */
    const sentOrders = new Map<string, { lines: Line[]; terms: Terms; answered: number }>();

    const timed = async (op: Op, run: () => Promise<Response>) => {
      const t = performance.now();
      let status: number;
      let text: string;
      try {
        const res = await run();
        status = res.status;
        text = await res.text();
      } catch (error) {
        networkErrors++;
        const byOp = outcomes.get(op) ?? new Map<string, number>();
        const key = `network ${(error as Error).message}`;
        byOp.set(key, (byOp.get(key) ?? 0) + 1);
        outcomes.set(op, byOp);
        return { status: 0, body: null };
      }
      const list = latencies.get(op) ?? [];
      list.push(performance.now() - t);
      latencies.set(op, list);
      let body = null;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        // Not JSON (a 5xx page): counted by status alone.
      }
      const key = status < 300 ? `${status}` : `${status} ${body?.code ?? "-"}`;
      const byOp = outcomes.get(op) ?? new Map<string, number>();
      byOp.set(key, (byOp.get(key) ?? 0) + 1);
      outcomes.set(op, byOp);
      if (status >= 500) {
        fiveXX++;
        console.error(op, status, text.slice(0, 300));
      }
      return { status, body: status < 300 ? body : null };
    };

    const deadline = Date.now() + SECONDS * 1000;
    const started = Date.now();
    await Promise.all(
      keys.map(async (key, client) => {
        const api = P(key);
        const lifecycle: Record<Lifecycle, (id: string) => Promise<unknown>> = {
          reschedule: (id) =>
            timed("reschedule", () =>
              api(`/bookings/${id}/reschedule`, { reserved_on: randomStart() }, "PUT"),
            ),
          staffer: (id) =>
            timed("staffer", () =>
              api(`/bookings/${id}/staffer`, { staffer_uuid: pick(staffers) }, "PUT"),
            ),
          replace: (id) =>
            timed("replace", () =>
              api(
                `/bookings/${id}/services`,
                { service_uuid: pick([cut, dye, massage]).uuid },
                "PUT",
              ),
            ),
          complete: async (id) =>
            closed(
              id,
              await timed("complete", () =>
                api(`/bookings/${id}/status/complete`, { account_uuid: cash.uuid }, "PUT"),
              ),
            ),
          cancel: async (id) =>
            closed(
              id,
              await timed("cancel", () =>
                api(`/bookings/${id}/status/cancel`, { cancel_reason: "postponed" }, "PUT"),
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
            await timed("search", () =>
              fetch(
                `${base}/api/public/v2/locations/${location.uuid}/time-slots?service_uuid=${searched.uuid}&range_start=${from}&range_end=${from}`,
                { headers: H(key) },
              ),
            );
          } else if (roll < 0.35) {
            const service = pick([cut, dye, massage]);
            const r = await timed("book", () =>
              api("/bookings", {
                location_uuid: location.uuid,
                service_uuid: service.uuid,
                reserved_on: randomStart(service === massage ? 3 : 30),
                ...customerOf(client * 100000 + n),
              }),
            );
            if (r.status === 201) share([r.body.uuid]);
          } else if (roll < 0.42) {
            const r = await timed("cart", () =>
              api("/bookings/cart", {
                location_uuid: location.uuid,
                ...customerOf(client),
                items: [
                  {
                    datetime_start: randomStart(n % 2 === 0 ? 3 : 30),
                    services: [
                      { service_uuid: cut.uuid },
                      { service_uuid: (n % 2 === 0 ? massage : dye).uuid },
                    ],
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
            races++;
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
            const r = await timed("order", () =>
              api("/orders", {
                location_uuid: location.uuid,
                staffer_uuid: staffers[client % staffers.length],
                goods: [{ good_uuid: good.uuid, price: 1299, quantity: goodQty }],
                services: [{ service_uuid: cut.uuid, price: 3500, quantity: 1 }],
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
              sentOrders.set(r.body.uuid, { lines, terms, answered: r.body.total });
              await timed("pay", () =>
                api(`/orders/${r.body.uuid}/pay`, { account_uuid: cash.uuid }),
              );
            }
          } else if (roll < 0.97) {
            await timed("get", () => fetch(`${base}/api/public/v2/locations`, { headers: H(key) }));
          } else {
            // Maintenance on one unit of the room or on both, 15 or 30 minutes, where massages are.
            const start = randomStart(3);
            const unit = n % 3 === 0 ? undefined : 1 + (n % ROOM_UNITS);
            await timed("block", () =>
              post(
                `/api/admin/v1/workspaces/${ws.uuid}/resources/${room.uuid}/blocked-spots`,
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
    const elapsed = (Date.now() - started) / 1000;

    // Every request has been answered; give confirms still in flight a second,
    // then compare every staffer's calendar object with D1 (at rest: no holds).
    await new Promise((r) => setTimeout(r, 1000));
    const listed = await (
      await fetch(`${base}/api/public/v2/staffers?per_page=100`, { headers: H(keys[0] ?? "") })
    ).json();
    const everyStaffer: string[] = listed.data.map((s: { uuid: string }) => s.uuid);
    const audits: { staffer: string; status: number; audit: AuditResult | null }[] = [];
    for (const staffer of everyStaffer) {
      const res = await fetch(
        `${base}/api/admin/v1/workspaces/${ws.uuid}/staffers/${staffer}/calendar`,
        {
          headers: adminH,
        },
      );
      audits.push({
        staffer,
        status: res.status,
        audit: res.ok ? ((await res.json()) as AuditResult) : null,
      });
    }
    const outOfSync = audits.filter((a) => !a.audit?.in_sync);
    // Every unit of the room: its calendar object against D1.
    const roomAuditRes = await fetch(
      `${base}/api/admin/v1/workspaces/${ws.uuid}/resources/${room.uuid}/calendar`,
      { headers: adminH },
    );
    const roomAudit = roomAuditRes.ok ? ((await roomAuditRes.json()) as UnitAuditResult) : null;
    const unitsOutOfSync = roomAudit
      ? roomAudit.units.filter((u) => !u.in_sync)
      : Array.from({ length: ROOM_UNITS }, (_, i) => ({
          unit: i + 1,
          in_sync: false,
          only_in_calendar: [],
          only_in_d1: [],
        }));

    // A plain authenticated GET, alone, as the yardstick.
    const plain: number[] = [];
    for (let i = 0; i < plainGets; i++) {
      const t = performance.now();
      await (
        await fetch(`${base}/api/public/v2/locations`, { headers: H(keys[0] ?? "") })
      ).arrayBuffer();
      plain.push(performance.now() - t);
    }

    // Let the queue drain: wait until the receiver has been quiet for 5 s, then
    // stop the server, since wrangler's local D1 cannot be read by a second process while it writes.
    let last = -1;
    for (let quiet = 0, i = 0; quiet < 5 && i < 90; i++) {
      const now = [...receiver.seen.values()].reduce((a, b) => a + b, 0);
      quiet = now === last ? quiet + 1 : 0;
      last = now;
      await new Promise((r) => setTimeout(r, 1000));
    }
    server.stop();
    await new Promise((r) => setTimeout(r, 2000));

    const w = `workspace_id = '${ws.uuid}'`;
    const [
      eventRows = [],
      overlapRows = [],
      bookingRows = [],
      serviceRows = [],
      entryRows = [],
      orderRows = [],
      lineRows = [],
      transactionRows = [],
      unitRows = [],
      roomBlockRows = [],
    ] = queryD1(server.persist, [
      `select id from events where ${w}`,
      `select count(*) as n from booking_services a join bookings ba on ba.id = a.booking_id and ba.is_canceled = 0
         join booking_services b on b.staffer_id = a.staffer_id and a.id < b.id
         join bookings bb on bb.id = b.booking_id and bb.is_canceled = 0
        where a.reserved_on < b.reserved_until + b.buffer * 60000 and b.reserved_on < a.reserved_until + a.buffer * 60000`,
      `select id, order_id, is_canceled, is_completed from bookings where ${w}`,
      `select booking_id, service_id, staffer_id, reserved_on, reserved_until, buffer, quantity, price, tax_rate_bp, resource_ids from booking_services where ${w}`,
      `select staffer_id, source_id, starts_at, ends_at from calendar_entries where ${w} and kind = 'booking' and staffer_id is not null`,
      `select id, kind, status, total, account_paid_amount, discount_mode, discount_amount, discount_percent, promocode, promocode_discount_amount from orders where ${w}`,
      `select order_id, kind, unit_price, quantity, tax_rate_bp from order_lines where ${w} order by order_id, position`,
      `select order_id, booking_id, amount from account_transactions where ${w}`,
      `select resource_id, unit, kind, source_id, starts_at, ends_at, expires_at from calendar_entries where ${w} and resource_id is not null`,
      `select id, resource_id, unit, starts_at, ends_at from resource_blocks where ${w}`,
    ]);
    const events = eventRows as { id: string }[];
    const overlaps = (overlapRows as { n: number }[])[0]?.n ?? -1;
    const bookings = bookingRows as {
      id: string;
      order_id: string;
      is_canceled: number;
      is_completed: number;
    }[];
    const services = serviceRows as {
      booking_id: string;
      service_id: string;
      staffer_id: string;
      reserved_on: number;
      reserved_until: number;
      buffer: number;
      quantity: number;
      price: number;
      tax_rate_bp: number | null;
      resource_ids: string;
    }[];
    const entries = entryRows as {
      staffer_id: string;
      source_id: string;
      starts_at: number;
      ends_at: number;
    }[];
    const orders = orderRows as {
      id: string;
      kind: "booking" | "pos";
      status: string;
      total: number;
      account_paid_amount: number;
      discount_mode: "fixed" | "percent" | null;
      discount_amount: number;
      discount_percent: number | null;
      promocode: string | null;
      promocode_discount_amount: number | null;
    }[];
    const lines = lineRows as {
      order_id: string;
      kind: string;
      unit_price: number;
      quantity: number;
      tax_rate_bp: number | null;
    }[];
    const transactions = transactionRows as {
      order_id: string | null;
      booking_id: string | null;
      amount: number;
    }[];

    const missing = events.filter((e) => !receiver.seen.has(e.id)).length;
    const duplicates = [...receiver.seen.values()].filter((v) => v > 1).length;

    const group = <T>(rows: T[], by: (row: T) => string | null) => {
      const out = new Map<string, T[]>();
      for (const row of rows) {
        const k = by(row);
        if (k !== null) out.set(k, [...(out.get(k) ?? []), row]);
      }
      return out;
    };
    const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
    const bookingById = new Map(bookings.map((b) => [b.id, b]));
    const servicesOf = group(services, (s) => s.booking_id);
    const bookingsOf = group(bookings, (b) => b.order_id);
    const linesOf = group(lines, (l) => l.order_id);
    const creditsOfBooking = group(transactions, (t) => t.booking_id);
    const creditsOfOrder = group(transactions, (t) => t.order_id);
    /** A set of booked services as order lines: no discounts on booking orders, tax per line. */
    const servicesTotal = (rows: typeof services) =>
      expectedTotals(
        rows.map((s) => ({ unit: s.price, qty: s.quantity, taxBp: s.tax_rate_bp })),
        { mode: null, amount: 0, percent: null, promocode: null },
      ).total;

    // Lifecycle state.
    const completedAndCanceled = bookings.filter((b) => b.is_completed && b.is_canceled).length;
    const completed = bookings.filter((b) => b.is_completed).length;
    const canceled = bookings.filter((b) => b.is_canceled).length;
    const oks = (op: Op) => outcomes.get(op)?.get("200") ?? 0;
    const completesOff = completed !== oks("complete");
    const cancelsOff = canceled !== oks("cancel");

    // D1's calendar entries are exactly the live booked services (with their buffers).
    const entryKey = (staffer: string, booking: string, start: number, end: number) =>
      `${staffer}|${booking}|${start}|${end}`;
    const expectedEntries = services
      .filter((s) => !bookingById.get(s.booking_id)?.is_canceled)
      .map((s) =>
        entryKey(s.staffer_id, s.booking_id, s.reserved_on, s.reserved_until + s.buffer * 60_000),
      )
      .sort();
    const actualEntries = entries
      .map((e) => entryKey(e.staffer_id, e.source_id, e.starts_at, e.ends_at))
      .sort();
    const entriesOff =
      expectedEntries.length !== actualEntries.length ||
      expectedEntries.some((k, i) => k !== actualEntries[i]);

    // The room: its units' entries of bookings are exactly one per resource in the live booked
    // services' resource_ids, over the service's time and buffer, on a unit that exists; its
    // block entries are one per blocked unit (both units when a block names none); and no two
    // live entries of one unit overlap (blocks may be laid over bookings, so they are left out).
    const unitEntries = unitRows as {
      resource_id: string;
      unit: number;
      kind: string;
      source_id: string;
      starts_at: number;
      ends_at: number;
      expires_at: number | null;
    }[];
    const roomBlocks = roomBlockRows as {
      id: string;
      resource_id: string;
      unit: number | null;
      starts_at: number;
      ends_at: number;
    }[];
    const liveServices = services.filter((s) => !bookingById.get(s.booking_id)?.is_canceled);
    const expectedUnitEntries = liveServices
      .flatMap((s) =>
        (JSON.parse(s.resource_ids) as string[]).map((r) =>
          entryKey(r, s.booking_id, s.reserved_on, s.reserved_until + s.buffer * 60_000),
        ),
      )
      .sort();
    const bookedUnits = unitEntries.filter((e) => e.kind === "booking");
    const actualUnitEntries = bookedUnits
      .map((e) => entryKey(e.resource_id, e.source_id, e.starts_at, e.ends_at))
      .sort();
    const unitEntriesOff =
      expectedUnitEntries.length !== actualUnitEntries.length ||
      expectedUnitEntries.some((k, i) => k !== actualUnitEntries[i]) ||
      unitEntries.some((e) => e.unit < 1 || e.unit > ROOM_UNITS);
    const expectedBlockEntries = roomBlocks
      .flatMap((b) =>
        (b.unit ? [b.unit] : Array.from({ length: ROOM_UNITS }, (_, i) => i + 1)).map((u) =>
          entryKey(`${b.resource_id}#${u}`, b.id, b.starts_at, b.ends_at),
        ),
      )
      .sort();
    const actualBlockEntries = unitEntries
      .filter((e) => e.kind === "blocked")
      .map((e) => entryKey(`${e.resource_id}#${e.unit}`, e.source_id, e.starts_at, e.ends_at))
      .sort();
    const blockEntriesOff =
      expectedBlockEntries.length !== actualBlockEntries.length ||
      expectedBlockEntries.some((k, i) => k !== actualBlockEntries[i]);
    const liveUnitEntries = unitEntries
      .filter((e) => e.kind !== "blocked" && (e.expires_at === null || e.expires_at > Date.now()))
      .sort((a, b) =>
        a.resource_id !== b.resource_id
          ? a.resource_id < b.resource_id
            ? -1
            : 1
          : a.unit - b.unit || a.starts_at - b.starts_at,
      );
    let unitOverlaps = 0;
    for (let i = 0; i < liveUnitEntries.length; i++) {
      for (let j = i + 1; j < liveUnitEntries.length; j++) {
        const a = liveUnitEntries[i];
        const b = liveUnitEntries[j];
        if (!a || !b || a.resource_id !== b.resource_id || a.unit !== b.unit) break;
        if (b.starts_at >= a.ends_at) break;
        unitOverlaps++;
      }
    }
    const massagesLive = liveServices.filter((s) => s.service_id === massage.uuid).length;

    // Booked services as the catalogue defines them (replace service re-derives both).
    const offCatalogue = services.filter((s) => {
      const c = catalogue.get(s.service_id);
      return (
        !c ||
        s.price !== c.price ||
        s.reserved_until - s.reserved_on !== c.minutes * 60_000 ||
        JSON.stringify([...(JSON.parse(s.resource_ids) as string[])].sort()) !==
          JSON.stringify(c.resources)
      );
    }).length;

    // Money on bookings: at most one credit per booking, only for completed
    // bookings, each the booking's own total.
    const creditedTwice = [...creditsOfBooking.values()].filter((t) => t.length > 1).length;
    const creditedOpen = [...creditsOfBooking.keys()].filter(
      (id) => !bookingById.get(id)?.is_completed,
    ).length;
    const completedUncredited = bookings.filter(
      (b) => b.is_completed && !creditsOfBooking.has(b.id),
    ).length;
    const wrongCredits = [...creditsOfBooking].filter(
      ([id, t]) => t[0]?.amount !== servicesTotal(servicesOf.get(id) ?? []),
    ).length;

    // Booking orders: total from their services, paid amount from their credits.
    const bookingOrders = orders.filter((o) => o.kind === "booking");
    const bookingOrderWrongTotal = bookingOrders.filter(
      (o) =>
        o.total !==
        servicesTotal((bookingsOf.get(o.id) ?? []).flatMap((b) => servicesOf.get(b.id) ?? [])),
    ).length;
    const bookingOrderWrongPaid = bookingOrders.filter(
      (o) =>
        o.account_paid_amount !== sum((creditsOfOrder.get(o.id) ?? []).map((t) => t.amount)) ||
        (o.status === "paid") !== (o.account_paid_amount >= o.total && o.account_paid_amount > 0),
    ).length;

    // POS orders: total from the D1 lines and terms, lines and terms as this
    // script sent them, the response's total, and one payment of the whole total.
    const posOrders = orders.filter((o) => o.kind === "pos");
    let posWrongTotal = 0;
    let posNotAsSent = 0;
    let posWrongPayment = 0;
    for (const o of posOrders) {
      const stored = (linesOf.get(o.id) ?? []).map((l) => ({
        unit: l.unit_price,
        qty: l.quantity,
        taxBp: l.tax_rate_bp,
      }));
      const terms: Terms = {
        mode: o.discount_mode ?? (o.discount_amount > 0 ? "fixed" : null),
        amount: o.discount_amount,
        percent: o.discount_percent,
        promocode: o.promocode,
      };
      const fromD1 = expectedTotals(stored, terms);
      if (fromD1.total !== o.total || fromD1.promo !== (o.promocode_discount_amount ?? 0))
        posWrongTotal++;
      const sent = sentOrders.get(o.id);
      const asSent = sent && expectedTotals(sent.lines, sent.terms);
      if (
        !sent ||
        !asSent ||
        asSent.total !== o.total ||
        sent.answered !== o.total ||
        JSON.stringify(sent.lines.map((l) => [l.unit, l.qty])) !==
          JSON.stringify(stored.map((l) => [l.unit, l.qty])) ||
        (sent.terms.promocode?.toLowerCase() ?? null) !== (o.promocode?.toLowerCase() ?? null)
      )
        posNotAsSent++;
      const credits = creditsOfOrder.get(o.id) ?? [];
      const paidRight =
        o.status === "paid"
          ? credits.length === 1 &&
            credits[0]?.amount === o.total &&
            o.account_paid_amount === o.total
          : credits.length === 0 && o.account_paid_amount === 0;
      if (!paidRight) posWrongPayment++;
    }
    const posPaid = posOrders.filter((o) => o.status === "paid").length;

    // Report.
    const total = [...latencies.values()].reduce((a, l) => a + l.length, 0);
    const plainP50 = percentile(plain, 50);
    console.log(`Mixed load against wrangler dev: ${CLIENTS} clients for ${elapsed.toFixed(1)} s`);
    console.log(
      `  requests ${total}, throughput ${(total / elapsed).toFixed(1)} req/s, lifecycle on a shared pool of the ${POOL_SIZE} most recent open bookings, ${races} races of 2–3 operations on one booking at once`,
    );
    for (const [op, l] of latencies)
      console.log(
        `  ${op.padEnd(10)} n=${String(l.length).padStart(5)}  ${(l.length / elapsed).toFixed(1).padStart(6)}/s  p50 ${percentile(l, 50).toFixed(1)} ms  p99 ${percentile(l, 99).toFixed(1)} ms  p50 ÷ plain GET ${(percentile(l, 50) / plainP50).toFixed(1)}×`,
      );
    console.log(
      `  plain authenticated GET alone: p50 ${plainP50.toFixed(1)} ms  p99 ${percentile(plain, 99).toFixed(1)} ms`,
    );
    console.log("Outcomes (status code × count)");
    for (const [op, byKey] of outcomes)
      console.log(
        `  ${op.padEnd(10)} ${[...byKey]
          .sort((a, b) => b[1] - a[1])
          .map(([k, v]) => `${k} ×${v}`)
          .join(", ")}`,
      );
    console.log("Calendar audit (each staffer's calendar object against D1)");
    console.log(
      `  staffers: ${audits.length}, in sync: ${audits.length - outOfSync.length}, out of sync: ${outOfSync.length}`,
    );
    for (const a of outOfSync) {
      console.log(`  staffer ${a.staffer}: ${a.audit ? "" : `audit answered ${a.status}`}`);
      for (const e of a.audit?.only_in_calendar ?? [])
        console.log(`    only in calendar: ${JSON.stringify(e)}`);
      for (const e of a.audit?.only_in_d1 ?? [])
        console.log(`    only in D1: ${JSON.stringify(e)}`);
    }
    console.log(
      `  room units: ${ROOM_UNITS}, in sync: ${ROOM_UNITS - unitsOutOfSync.length}, out of sync: ${unitsOutOfSync.length}${roomAudit ? "" : ` (audit answered ${roomAuditRes.status})`}`,
    );
    for (const u of unitsOutOfSync) {
      for (const e of u.only_in_calendar)
        console.log(`    unit ${u.unit} only in calendar: ${JSON.stringify(e)}`);
      for (const e of u.only_in_d1)
        console.log(`    unit ${u.unit} only in D1: ${JSON.stringify(e)}`);
    }
    const checks: [string, boolean][] = [
      [`overlapping live bookings per staffer: ${overlaps}`, overlaps === 0],
      [
        `D1 calendar entries: ${actualEntries.length}, live booked services: ${expectedEntries.length}, ${entriesOff ? "DIFFERENT" : "the same"}`,
        !entriesOff,
      ],
      [
        `bookings: ${bookings.length}, completed: ${completed} (200s: ${oks("complete")}), canceled: ${canceled} (200s: ${oks("cancel")}), both: ${completedAndCanceled}`,
        completedAndCanceled === 0 && !completesOff && !cancelsOff,
      ],
      [`overlapping live entries per room unit: ${unitOverlaps}`, unitOverlaps === 0],
      [
        `D1 room unit entries of bookings: ${actualUnitEntries.length}, resource_ids of live booked services: ${expectedUnitEntries.length} (live massages: ${massagesLive}), ${unitEntriesOff ? "DIFFERENT" : "the same"}`,
        !unitEntriesOff,
      ],
      [
        `D1 room unit entries of blocks: ${actualBlockEntries.length}, units of the room's ${roomBlocks.length} blocks: ${expectedBlockEntries.length}, ${blockEntriesOff ? "DIFFERENT" : "the same"}`,
        !blockEntriesOff,
      ],
      [
        `booked services off the catalogue's price, length or resources: ${offCatalogue}`,
        offCatalogue === 0,
      ],
      [
        `account transactions on bookings: ${creditsOfBooking.size}; bookings credited more than once: ${creditedTwice}, credited but not completed: ${creditedOpen}, completed without credit: ${completedUncredited}, credit not the booking's own total: ${wrongCredits}`,
        creditedTwice + creditedOpen + completedUncredited + wrongCredits === 0,
      ],
      [
        `booking orders: ${bookingOrders.length}; total differing from the script's sum of their services: ${bookingOrderWrongTotal}, paid amount or status differing from their transactions: ${bookingOrderWrongPaid}`,
        bookingOrderWrongTotal + bookingOrderWrongPaid === 0,
      ],
      [
        `POS orders: ${posOrders.length} (paid ${posPaid}); total differing from the script's computation on D1 lines: ${posWrongTotal}, differing from what the script sent or was answered: ${posNotAsSent}, payment not exactly once the total: ${posWrongPayment}`,
        posWrongTotal + posNotAsSent + posWrongPayment === 0 &&
          posOrders.length === sentOrders.size,
      ],
      [
        `outbox events: ${events.length}, not delivered: ${missing}, delivered more than once: ${duplicates}`,
        missing + duplicates === 0,
      ],
      [
        `calendar objects out of sync with D1: staffers ${outOfSync.length}, room units ${unitsOutOfSync.length}`,
        outOfSync.length + unitsOutOfSync.length === 0,
      ],
      [`5xx responses: ${fiveXX}, network errors: ${networkErrors}`, fiveXX + networkErrors === 0],
    ];
    console.log("Invariants");
    for (const [text, ok] of checks) console.log(`  ${ok ? "ok  " : "FAIL"} ${text}`);
    const failed = checks.filter(([, ok]) => !ok).length;
    console.log(failed === 0 ? "PASS" : `FAIL: ${failed} invariant(s) violated`);
    return failed;
  } finally {
    server.stop();
    receiver.close();
  }
}

interface AuditResult {
  in_sync: boolean;
  only_in_calendar: unknown[];
  only_in_d1: unknown[];
}

interface UnitAuditResult {
  in_sync: boolean;
  units: (AuditResult & { unit: number })[];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if ((await runLoad()) > 0) process.exitCode = 1;
}
