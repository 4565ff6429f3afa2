import { adminPost, createOpenSalon } from "./open-salon";
import { type DevServer, startDevServer, withDevServer } from "./server";
import { percentile } from "./stats";

const CLIENTS = 10;
const PORT = 8799;

/**
 * A 24/7 workspace with ten staffers and a 5-minute service, made through the
 * API, and one API key per client: the rate limit counts per key, as it would
 * for separate front desks.
 */
async function setUp(base: string, clients: number) {
  const salon = await createOpenSalon(base, { staffers: clients, slotStep: 5 });
  const keys: string[] = [salon.apiKey];
  while (keys.length < clients + 1)
    keys.push((await adminPost(base, `/workspaces/${salon.workspaceId}/api-keys`, {})).api_key);
  const headers = keys.map((key) => ({
    authorization: `Bearer ${key}`,
    workspace: salon.workspaceId,
    "content-type": "application/json",
  }));
  const res = await fetch(`${base}/api/public/v2/services`, {
    method: "POST",
    headers: headers[0],
    body: JSON.stringify({ name: "Quick", duration: 5, price: 100 }),
  });
  const service = await res.json();
  if (!res.ok) throw new Error(`${res.status} ${JSON.stringify(service)}`);
  return {
    headers,
    location: salon.location,
    service: service.uuid as string,
    staffers: salon.staffers,
  };
}

export async function runBookingsBench({
  clients = CLIENTS,
  bookings: N = 200,
  server: given,
}: {
  /** Clients at once, and staffers (one client each in the last run). */
  clients?: number;
  /** Bookings per run (a multiple of `clients`). */
  bookings?: number;
  server?: DevServer;
} = {}): Promise<void> {
  await withDevServer(
    given,
    () => startDevServer(PORT),
    async (server) => {
      const { headers, location, service, staffers } = await setUp(server.base, clients);
      let minute = 0;
      const book = async (staffer: string, client = 0) => {
        const start = Date.UTC(2031, 0, 1) + minute++ * 5 * 60_000;
        const started = performance.now();
        const res = await fetch(`${server.base}/api/public/v2/bookings`, {
          method: "POST",
          headers: headers[client],
          body: JSON.stringify({
            location_uuid: location,
            service_uuid: service,
            staffer_uuid: staffer,
            reserved_on: new Date(start).toISOString().replace(".000Z", "Z"),
            customer_phone: "+4915123456789",
            customer_first_name: "Bench",
          }),
        });
        await res.arrayBuffer();
        if (res.status !== 201) throw new Error(`booking failed: ${res.status}`);
        return performance.now() - started;
      };
      const get = async () => {
        const started = performance.now();
        const res = await fetch(`${server.base}/api/public/v2/locations`, {
          headers: headers[clients],
        });
        await res.arrayBuffer();
        return performance.now() - started;
      };
      for (let i = 0; i < Math.min(10, N); i++) await book(staffers[0] ?? "");

      const serialStart = performance.now();
      const postLatencies: number[] = [];
      for (let i = 0; i < N; i++) postLatencies.push(await book(staffers[0] ?? ""));
      const serialRate = N / ((performance.now() - serialStart) / 1000);

      // Ten concurrent clients on the same calendar: the object serialises their claims.
      const contendedStart = performance.now();
      await Promise.all(
        Array.from({ length: clients }, async (_, client) => {
          for (let i = 0; i < N / clients; i++) await book(staffers[0] ?? "", client);
        }),
      );
      const contendedRate = N / ((performance.now() - contendedStart) / 1000);

      const parallelStart = performance.now();
      await Promise.all(
        staffers.map(async (s, client) => {
          for (let i = 0; i < N / clients; i++) await book(s, client);
        }),
      );
      const parallelRate = N / ((performance.now() - parallelStart) / 1000);

      const getLatencies: number[] = [];
      for (let i = 0; i < N; i++) getLatencies.push(await get());
      const p = (v: number[], q: number) => percentile(v, q).toFixed(1);
      console.log("Bookings against wrangler dev (local workerd, D1 and Durable Objects)");
      console.log(`  one staffer calendar, sequential:   ${serialRate.toFixed(0)} bookings/s`);
      console.log(
        `  one staffer calendar, ${clients} clients:    ${contendedRate.toFixed(0)} bookings/s (serialised by its Durable Object)`,
      );
      console.log(
        `  ${clients} staffers, one client each:       ${parallelRate.toFixed(0)} bookings/s`,
      );
      console.log(
        `  POST /bookings latency:              p50 ${p(postLatencies, 50)} ms, p99 ${p(postLatencies, 99)} ms`,
      );
      console.log(
        `  GET /locations (authenticated):      p50 ${p(getLatencies, 50)} ms, p99 ${p(getLatencies, 99)} ms`,
      );
      console.log(
        `  ratio POST /bookings ÷ GET (p50):    ${(percentile(postLatencies, 50) / percentile(getLatencies, 50)).toFixed(1)}×`,
      );
    },
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await runBookingsBench();
