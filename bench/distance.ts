import { adminPost, createOpenSalon } from "./open-salon";
import { type DevServer, startDevServer, withDevServer } from "./server";
import { percentile } from "./stats";

/**
 * The delay added before every D1 and calendar call: `--delay <ms>`, default
 * 100 ms (a Worker on another continent than the database). A local request
 * costs some 10–20 ms of its own on this machine, which a small delay would
 * count as a fraction of a hop.
 */
const flag = process.argv.indexOf("--delay");
export const DISTANCE_MS = flag >= 0 ? Number(process.argv[flag + 1]) : 100;
const SAMPLES = 15;
const PORT = 8797;

/** The distance bench's own server: bench/distance/worker.ts, with the delay. */
export const startDistanceServer = (
  delayMs: number,
  port = PORT,
  vars: Record<string, string> = {},
  logFile?: string,
) =>
  startDevServer(
    port,
    { ...vars, DISTANCE_MS: String(delayMs) },
    "bench/distance/worker.ts",
    logFile,
  );

interface Sample {
  ms: number;
  d1: number | null;
  calendar: number | null;
}

const metric = (timing: string | null, name: string) => {
  const match = new RegExp(`${name};dur=[\\d.]+;desc="(\\d+) `).exec(timing ?? "");
  return match?.[1] ? Number(match[1]) : null;
};

async function call(base: string, path: string, init: RequestInit = {}) {
  const started = performance.now();
  const res = await fetch(`${base}${path}`, init);
  const text = await res.text();
  const ms = performance.now() - started;
  if (!res.ok) throw new Error(`${init.method ?? "GET"} ${path} → ${res.status}: ${text}`);
  const timing = res.headers.get("server-timing");
  return {
    body: text ? JSON.parse(text) : null,
    sample: { ms, d1: metric(timing, "d1"), calendar: metric(timing, "calendar") } as Sample,
  };
}

/** A 24/7 location in UTC, three staffers, a 15-minute service, a till and a good in stock. */
async function setUp(base: string) {
  const salon = await createOpenSalon(base, {
    staffers: 3,
    slotStep: 15,
    permissions: ["access-pos"],
  });
  const { location, staffers } = salon;
  const till = await adminPost(base, `/workspaces/${salon.workspaceId}/accounts`, {
    location_uuid: location,
    name: "Till",
    type: "cash",
  });
  const headers = {
    authorization: `Bearer ${salon.apiKey}`,
    workspace: salon.workspaceId,
    "content-type": "application/json",
  };
  const api = (path: string, method = "GET", body?: unknown) =>
    call(base, `/api/public/v2${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const service = (await api("/services", "POST", { name: "Quick", duration: 15, price: 1000 }))
    .body;
  const good = (
    await api("/goods", "POST", {
      name: "Shampoo",
      article: "SH-1",
      is_payable: true,
      price: 500,
      unit: "pcs",
      is_consumable: false,
      initial_stock: {
        is_set: true,
        location_uuid: location,
        unit_price: 200,
        quantity: 10_000,
      },
    })
  ).body;
  return {
    api,
    location,
    staffers,
    service: service.uuid as string,
    till: till.uuid as string,
    good: good.uuid as string,
  };
}

export async function runDistanceBench({
  delayMs = DISTANCE_MS,
  samples = SAMPLES,
  server: given,
}: {
  delayMs?: number;
  samples?: number;
  /** A server started with startDistanceServer(delayMs) (the test suite's); else its own. */
  server?: DevServer;
} = {}): Promise<void> {
  await withDevServer(
    given,
    () => startDistanceServer(delayMs),
    async (server) => {
      const { api, location, staffers, service, till, good } = await setUp(server.base);
      let slot = 0;
      // Every booking its own quarter hour, far in the future, so none conflicts.
      const nextStart = () =>
        new Date(Date.UTC(2031, 0, 6) + slot++ * 15 * 60_000).toISOString().replace(".000Z", "Z");
      const customer = { customer_phone: "+4915123456789", customer_first_name: "Far" };
      const book = () =>
        api("/bookings", "POST", {
          location_uuid: location,
          service_uuid: service,
          staffer_uuid: staffers[0],
          reserved_on: nextStart(),
          ...customer,
        });

      // A package with credits for every booking the bench makes with one, owned by the
      // bench's customer (created by a first booking, sold at the till).
      await book();
      const owner = (await api(`/customers?phone=${encodeURIComponent(customer.customer_phone)}`))
        .body.data[0].uuid as string;
      const template = (
        await api("/packages", "POST", {
          name: "Bench pass",
          price: 0,
          credits: [{ service_uuids: [service], count: 1000 }],
          valid_days: 1095,
        })
      ).body;
      const sale = (
        await api("/orders", "POST", {
          location_uuid: location,
          staffer_uuid: staffers[0],
          customer_uuid: owner,
          packages: [{ package_uuid: template.uuid, price: 0, quantity: 1 }],
        })
      ).body;
      await api(`/orders/${sale.uuid}/pay`, "POST", { account_uuid: till });
      const pass = (await api(`/customer-packages?customer_uuid=${owner}`)).body.data[0]
        .uuid as string;
      // Credits last at most 1095 days: these bookings start within them, on quarter hours.
      const DAY_MS = 86_400_000;
      const creditDay = Math.floor(Date.now() / DAY_MS + 400) * DAY_MS;
      let creditSlot = 0;
      const nextCreditStart = () =>
        new Date(creditDay + creditSlot++ * 15 * 60_000).toISOString().replace(".000Z", "Z");
      const bookWithCredit = () =>
        api("/bookings", "POST", {
          location_uuid: location,
          service_uuid: service,
          staffer_uuid: staffers[0],
          reserved_on: nextCreditStart(),
          customer_package_uuid: pass,
          ...customer,
        });

      const operations: [string, () => Promise<Sample>][] = [
        ["list (GET /services)", async () => (await api("/services")).sample],
        [
          "get (GET /bookings/{uuid})",
          async () => {
            const booking = (await book()).body;
            return (await api(`/bookings/${booking.uuid}`)).sample;
          },
        ],
        [
          "time-slot search (7 days)",
          async () =>
            (
              await api(
                `/locations/${location}/time-slots?service_uuid=${service}&range_start=2031-02-03&range_end=2031-02-09`,
              )
            ).sample,
        ],
        ["booking create", async () => (await book()).sample],
        ["booking create, credit", async () => (await bookWithCredit()).sample],
        [
          "cart (3 staffers)",
          async () =>
            (
              await api("/bookings/cart", "POST", {
                location_uuid: location,
                ...customer,
                items: [
                  {
                    datetime_start: nextStart(),
                    services: staffers.map((s) => ({ service_uuid: service, staffer_uuid: s })),
                  },
                ],
              })
            ).sample,
        ],
        [
          "reschedule",
          async () => {
            const booking = (await book()).body;
            return (
              await api(`/bookings/${booking.uuid}/reschedule`, "PUT", { reserved_on: nextStart() })
            ).sample;
          },
        ],
        [
          "complete",
          async () => {
            const booking = (await book()).body;
            return (
              await api(`/bookings/${booking.uuid}/status/complete`, "PUT", { account_uuid: till })
            ).sample;
          },
        ],
        [
          "complete, credit",
          async () => {
            const booking = (await bookWithCredit()).body;
            return (
              await api(`/bookings/${booking.uuid}/status/complete`, "PUT", { account_uuid: till })
            ).sample;
          },
        ],
        [
          "POS pay",
          async () => {
            const order = (
              await api("/orders", "POST", {
                location_uuid: location,
                staffer_uuid: staffers[0],
                goods: [{ good_uuid: good, price: 500, quantity: 1 }],
              })
            ).body;
            return (await api(`/orders/${order.uuid}/pay`, "POST", { account_uuid: till })).sample;
          },
        ],
      ];

      console.log(
        `Distance mode: ${delayMs} ms added before every D1 call and every calendar call (wrangler dev, bench/distance/worker.ts)`,
      );
      console.log(
        "  operation                    p50 ms   p50 ÷ delay   D1 round trips   calendar calls",
      );
      for (const [name, run] of operations) {
        await run(); // warm-up: the isolate, the calendar object's first load
        const taken: Sample[] = [];
        for (let i = 0; i < samples; i++) taken.push(await run());
        const p50 = percentile(
          taken.map((s) => s.ms),
          50,
        );
        const hops = (pick: (s: Sample) => number | null) => {
          const values = taken.map(pick).filter((v): v is number => v !== null);
          return values.length ? String(percentile(values, 50)) : "n/a";
        };
        console.log(
          `  ${name.padEnd(28)} ${p50.toFixed(0).padStart(6)}   ${(p50 / delayMs).toFixed(2).padStart(11)}   ${hops((s) => s.d1).padStart(14)}   ${hops((s) => s.calendar).padStart(14)}`,
        );
      }
    },
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await runDistanceBench();
