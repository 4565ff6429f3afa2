import { execFileSync } from "node:child_process";
import { createServer } from "node:http";
import { type OrderLine, orderInvoice } from "../src/domain/pricing";
import { startDevServer } from "./server";
import { percentile } from "./stats";

/**
 * `npm run load`: a mixed workload from many clients against `wrangler dev`
 * for a fixed time, then invariants checked from the database: no overlapping
 * live bookings per staffer, every outbox event delivered once to a local
 * receiver, every POS order's total equal to the pricing function's.
 */
const SECONDS = Number(process.env.LOAD_SECONDS ?? 20);
const CLIENTS = Number(process.env.LOAD_CLIENTS ?? 12);
const PORT = 8797;
const ADMIN = "bench-token";

type Op = "search" | "book" | "cart" | "reschedule" | "cancel" | "order" | "get";
const latencies = new Map<Op, number[]>();
const outcomes = new Map<string, number>();
const count = (k: string) => outcomes.set(k, (outcomes.get(k) ?? 0) + 1);

/** A local webhook receiver: which event ids arrived, and how often. */
function startReceiver(port: number) {
  const seen = new Map<string, number>();
  const server = createServer((req, res) => {
    const id = String(req.headers["webhook-id"] ?? "");
    req.resume();
    req.on("end", () => {
      seen.set(id, (seen.get(id) ?? 0) + 1);
      res.writeHead(200).end("ok");
    });
  });
  server.listen(port, "127.0.0.1");
  return { seen, close: () => server.close() };
}

function query<T>(persist: string, sql: string): T[] {
  const out = execFileSync(
    "npx",
    [
      "wrangler",
      "d1",
      "execute",
      "DB",
      "--local",
      "--persist-to",
      persist,
      "--json",
      "--command",
      sql,
    ],
    {
      env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
      encoding: "utf8",
      maxBuffer: 1 << 28,
    },
  );
  return (JSON.parse(out) as { results: T[] }[])[0]?.results ?? [];
}

async function main() {
  const receiver = startReceiver(8796);
  const server = await startDevServer(PORT, { WEBHOOK_RETRY_BASE_SECONDS: "1" });
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
      url: "http://127.0.0.1:8796/hook",
      events: [
        "booking-created",
        "booking-canceled",
        "booking-rescheduled",
        "order-created",
        "order-paid",
        "customer-created",
      ],
      tries: 5,
      timeout: 5,
    });

    const day0 = Date.UTC(2031, 0, 6);
    const randomStart = () => {
      const day = Math.floor(Math.random() * 30);
      const slot = Math.floor(Math.random() * 44); // 08:00..18:45 in 15 min steps
      return new Date(day0 + day * 86_400_000 + 8 * 3_600_000 + slot * 900_000)
        .toISOString()
        .replace(".000Z", "Z");
    };
    const customerOf = (i: number) => ({
      customer_phone: `+49151${String(1000000 + i).padStart(8, "0")}`,
      customer_first_name: "Load",
    });

    const deadline = Date.now() + SECONDS * 1000;
    const started = Date.now();
    await Promise.all(
      keys.map(async (key, client) => {
        const api = P(key);
        const mine: string[] = [];
        const timed = async (op: Op, run: () => Promise<Response>) => {
          const t = performance.now();
          const res = await run();
          const body = await res.text();
          const list = latencies.get(op) ?? [];
          list.push(performance.now() - t);
          latencies.set(op, list);
          count(
            res.status >= 500
              ? "5xx"
              : res.status === 429
                ? "429"
                : res.status >= 400
                  ? `${res.status}`
                  : "2xx",
          );
          if (res.status >= 500) console.error(op, res.status, body.slice(0, 300));
          return { status: res.status, body: res.status < 300 && body ? JSON.parse(body) : null };
        };
        let n = 0;
        while (Date.now() < deadline) {
          n++;
          const roll = Math.random();
          if (roll < 0.25) {
            const from = randomStart().slice(0, 10);
            await timed("search", () =>
              fetch(
                `${base}/api/public/v2/locations/${location.uuid}/time-slots?service_uuid=${cut.uuid}&range_start=${from}&range_end=${from}`,
                { headers: H(key) },
              ),
            );
          } else if (roll < 0.5) {
            const r = await timed("book", () =>
              api("/bookings", {
                location_uuid: location.uuid,
                service_uuid: Math.random() < 0.5 ? cut.uuid : dye.uuid,
                reserved_on: randomStart(),
                ...customerOf(client * 100000 + n),
              }),
            );
            if (r.status === 201) mine.push(r.body.uuid);
          } else if (roll < 0.6) {
            const r = await timed("cart", () =>
              api("/bookings/cart", {
                location_uuid: location.uuid,
                ...customerOf(client),
                items: [
                  {
                    datetime_start: randomStart(),
                    services: [{ service_uuid: cut.uuid }, { service_uuid: dye.uuid }],
                  },
                ],
              }),
            );
            if (r.status === 201)
              mine.push(...r.body.bookings.map((b: { uuid: string }) => b.uuid));
          } else if (roll < 0.7 && mine.length > 0) {
            const id = mine[Math.floor(Math.random() * mine.length)];
            await timed("reschedule", () =>
              api(`/bookings/${id}/reschedule`, { reserved_on: randomStart() }, "PUT"),
            );
          } else if (roll < 0.78 && mine.length > 0) {
            const id = mine.splice(Math.floor(Math.random() * mine.length), 1)[0];
            await timed("cancel", () =>
              api(`/bookings/${id}/status/cancel`, { cancel_reason: "postponed" }, "PUT"),
            );
          } else if (roll < 0.93) {
            const r = await timed("order", () =>
              api("/orders", {
                location_uuid: location.uuid,
                staffer_uuid: staffers[client % staffers.length],
                goods: [{ good_uuid: good.uuid, price: 1299, quantity: 1 + (n % 3) }],
                services: [{ service_uuid: cut.uuid, price: 3500, quantity: 1 }],
                discount_mode: "percent",
                discount_percent: n % 30,
              }),
            );
            if (r.status === 201)
              await timed("order", () =>
                api(`/orders/${r.body.uuid}/pay`, { account_uuid: cash.uuid }),
              );
          } else {
            await timed("get", () => fetch(`${base}/api/public/v2/locations`, { headers: H(key) }));
          }
        }
      }),
    );
    const elapsed = (Date.now() - started) / 1000;

    // A plain authenticated GET, alone, as the yardstick.
    const plain: number[] = [];
    for (let i = 0; i < 200; i++) {
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
    const expected = query<{ id: string }>(
      server.persist,
      `select id from events where workspace_id = '${ws.uuid}'`,
    );
    const missing = expected.filter((e) => !receiver.seen.has(e.id)).length;
    const duplicates = [...receiver.seen.values()].filter((v) => v > 1).length;

    const overlaps = query<{ n: number }>(
      server.persist,
      `select count(*) as n from booking_services a join bookings ba on ba.id = a.booking_id and ba.is_canceled = 0
         join booking_services b on b.staffer_id = a.staffer_id and a.id < b.id
         join bookings bb on bb.id = b.booking_id and bb.is_canceled = 0
        where a.reserved_on < b.reserved_until + b.buffer * 60000 and b.reserved_on < a.reserved_until + a.buffer * 60000`,
    )[0]?.n;
    const orders = query<{
      id: string;
      total: number;
      discount_mode: "fixed" | "percent" | null;
      discount_amount: number;
      discount_percent: number | null;
      promocode: string | null;
      promocode_discount_amount: number | null;
    }>(
      server.persist,
      `select id, total, discount_mode, discount_amount, discount_percent, promocode, promocode_discount_amount from orders where workspace_id = '${ws.uuid}' and kind = 'pos'`,
    );
    const lines = query<{
      order_id: string;
      kind: OrderLine["kind"];
      unit_price: number;
      catalog_price: number;
      quantity: number;
      tax_name: string | null;
      tax_rate_bp: number | null;
    }>(
      server.persist,
      `select order_id, kind, unit_price, catalog_price, quantity, tax_name, tax_rate_bp from order_lines where workspace_id = '${ws.uuid}'`,
    );
    const wrongTotals = orders.filter((o) => {
      const mine = lines
        .filter((l) => l.order_id === o.id)
        .map((l) => ({
          kind: l.kind,
          unitPrice: l.unit_price,
          catalogPrice: l.catalog_price,
          quantity: l.quantity,
          taxName: l.tax_name,
          taxRateBp: l.tax_rate_bp,
        }));
      const inv = orderInvoice(
        mine,
        {
          discountMode: o.discount_mode,
          discountAmount: o.discount_amount,
          discountPercent: o.discount_percent,
          promocode: o.promocode,
          promocodeDiscountAmount: o.promocode_discount_amount,
        },
        { account: 0, voucher: 0 },
      );
      return inv.total !== o.total;
    }).length;

    const total = [...latencies.values()].reduce((a, l) => a + l.length, 0);
    const plainP50 = percentile(plain, 50);
    console.log(`Mixed load against wrangler dev: ${CLIENTS} clients for ${elapsed.toFixed(1)} s`);
    console.log(
      `  requests ${total}, throughput ${(total / elapsed).toFixed(1)} req/s, outcomes ${JSON.stringify(Object.fromEntries(outcomes))}`,
    );
    for (const [op, l] of latencies)
      console.log(
        `  ${op.padEnd(10)} n=${String(l.length).padStart(5)}  ${(l.length / elapsed).toFixed(1).padStart(6)}/s  p50 ${percentile(l, 50).toFixed(1)} ms  p99 ${percentile(l, 99).toFixed(1)} ms  p50 ÷ plain GET ${(percentile(l, 50) / plainP50).toFixed(1)}×`,
      );
    console.log(
      `  plain authenticated GET alone: p50 ${plainP50.toFixed(1)} ms  p99 ${percentile(plain, 99).toFixed(1)} ms`,
    );
    console.log("Invariants");
    console.log(`  overlapping live bookings per staffer: ${overlaps}`);
    console.log(
      `  outbox events: ${expected.length}, not delivered: ${missing}, delivered more than once: ${duplicates}`,
    );
    console.log(
      `  POS orders: ${orders.length}, totals differing from the pricing function: ${wrongTotals}`,
    );
    console.log(`  5xx responses: ${outcomes.get("5xx") ?? 0}`);
    const violations =
      (overlaps ?? 1) + missing + duplicates + wrongTotals + (outcomes.get("5xx") ?? 0);
    if (violations > 0) process.exitCode = 1;
  } finally {
    server.stop();
    receiver.close();
  }
}

await main();
