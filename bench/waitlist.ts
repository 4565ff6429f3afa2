import { execFileSync } from "node:child_process";
import { createOpenSalon } from "./open-salon";
import { queryD1, startDevServer } from "./server";
import { percentile } from "./stats";

/**
 * `npm run bench -- --waitlist`, under `wrangler dev` (what `npm start` runs),
 * with nothing but the location's waitlist desk (its alarm) making offers:
 *
 * 1. Time from the freeing write to the offer: 20 rounds of book a slot, put
 *    a customer on the waitlist for exactly that slot, cancel the booking, poll
 *    until the entry is offered. The latency is the entry's `updated_at` (the
 *    offer's write) minus the booking's (the cancel's write), both from D1 in ms.
 * 2. Matching with 1,000 waiting entries at the location, spread over 50 days
 *    (20 a day) and wanting a time that never fits: the rows the desk's
 *    candidate query reads for one freed day (D1's own `rows_read`, from the
 *    query as the desk builds it) against a scan of every waiting entry, and
 *    the freeing-to-offer time again for a fitting entry queued behind that day's 20.
 */
const PORT = 8796;
const ROUNDS = 20;
const ENTRIES = 1_000;
const DAYS = 50;
const IN_FLIGHT = 10;
const DAY_MS = 86_400_000;
const HOUR = 3_600_000;

const iso = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");
const date = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);

export async function runWaitlistBench(): Promise<void> {
  const server = await startDevServer(PORT, { MANAGE_TOKEN_SECRET: "bench-manage-token-secret" });
  try {
    const { base } = server;
    const salon = await createOpenSalon(base, { staffers: 1, slotStep: 30 });
    const headers = {
      authorization: `Bearer ${salon.apiKey}`,
      workspace: salon.workspaceId,
      "content-type": "application/json",
    };
    const api = async (path: string, method = "GET", body?: unknown) => {
      const send = () =>
        fetch(`${base}/api/public/v2${path}`, {
          method,
          headers,
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
      let res = await send();
      // wrangler dev's local proxy resets a request now and then under load ("worker restarted").
      for (let tries = 0; res.status === 503 && tries < 3; tries++) res = await send();
      const text = await res.text();
      if (!res.ok) throw new Error(`${method} ${path} → ${res.status}: ${text}`);
      return text ? JSON.parse(text) : null;
    };
    const service = await api("/services", "POST", { name: "Cut", duration: 30, price: 100 });
    let phone = 0;
    const nextPhone = () => `+49151${String(2_000_000 + ++phone).padStart(8, "0")}`;

    /** Book `start`, wait for exactly it, cancel, wait for the offer: the pair of ids. */
    const round = async (start: number) => {
      const booking = await api("/bookings", "POST", {
        location_uuid: salon.location,
        service_uuid: service.uuid,
        staffer_uuid: salon.staffers[0],
        reserved_on: iso(start),
        customer_phone: nextPhone(),
        customer_first_name: "Booked",
      });
      const entry = await api("/waitlist", "POST", {
        location_uuid: salon.location,
        services: [{ service_uuid: service.uuid }],
        customer_phone: nextPhone(),
        customer_first_name: "Waiting",
        from: date(start),
        to: date(start),
        times: [{ start: hhmm(start), end: hhmm(start + 30 * 60_000) }],
      });
      await api(`/bookings/${booking.uuid}/status/cancel`, "PUT", {});
      const deadline = Date.now() + 30_000;
      for (;;) {
        const seen = await api(`/waitlist/${entry.uuid}`);
        if (seen.status === "offered") break;
        if (Date.now() > deadline) throw new Error(`no offer for ${entry.uuid} in 30 s`);
        await new Promise((r) => setTimeout(r, 25));
      }
      return { booking: booking.uuid as string, entry: entry.uuid as string };
    };

    const firstDay = Math.ceil((Date.now() + 7 * DAY_MS) / DAY_MS) * DAY_MS;
    const pairs = [];
    for (let i = 0; i < ROUNDS; i++) pairs.push(await round(firstDay + i * HOUR));
    const latencies = latency(server.persist, pairs);
    console.log(
      `Waitlist: freeing write → offer, ${ROUNDS} cancels with an entry waiting: median ${percentile(latencies, 50)} ms, worst ${Math.max(...latencies)} ms`,
    );

    // 1,000 entries that never fit (a 30-minute visit in a 15-minute window), 20 a day.
    const crowdStart = firstDay + DAY_MS;
    const bodies = Array.from({ length: ENTRIES }, (_, i) => {
      const day = date(crowdStart + (i % DAYS) * DAY_MS);
      return {
        location_uuid: salon.location,
        services: [{ service_uuid: service.uuid }],
        customer_phone: nextPhone(),
        customer_first_name: "Crowd",
        from: day,
        to: day,
        times: [{ start: "23:30", end: "23:45" }],
      };
    });
    const t0 = Date.now();
    for (let i = 0; i < bodies.length; i += IN_FLIGHT) {
      await Promise.all(bodies.slice(i, i + IN_FLIGHT).map((b) => api("/waitlist", "POST", b)));
    }
    console.log(
      `Waitlist: ${ENTRIES} waiting entries over ${DAYS} days joined in ${Date.now() - t0} ms`,
    );
    const crowded = firstDay + DAY_MS + 10 * HOUR;
    const [crowd] = await Promise.all([round(crowded)]);
    const [behind] = latency(server.persist, [crowd]);
    const reads = candidateReads(
      server.persist,
      salon.workspaceId,
      salon.location,
      salon.staffers,
      date(crowded),
    );
    console.log(
      `Waitlist: with ${ENTRIES} waiting, one freed day's candidates read ${reads.candidates} rows (a scan of every waiting entry reads ${reads.scan}); freeing → offer for the entry behind that day's ${ENTRIES / DAYS}: ${behind} ms`,
    );
    console.log(
      JSON.stringify({
        waitlist_offer_median_ms: percentile(latencies, 50),
        waitlist_offer_worst_ms: Math.max(...latencies),
        waitlist_candidate_rows_read: reads.candidates,
        waitlist_scan_rows_read: reads.scan,
        waitlist_offer_behind_crowd_ms: behind,
      }),
    );
  } finally {
    server.stop();
  }
}

/** Offer time minus cancel time per pair, in ms, from D1. */
function latency(persist: string, pairs: { booking: string; entry: string }[]): number[] {
  const ids = (xs: string[]) => xs.map((x) => `'${x}'`).join(",");
  const [entries = [], bookings = []] = queryD1(persist, [
    `SELECT id, updated_at FROM waitlist_entries WHERE id IN (${ids(pairs.map((p) => p.entry))})`,
    `SELECT id, updated_at FROM bookings WHERE id IN (${ids(pairs.map((p) => p.booking))})`,
  ]) as { id: string; updated_at: number }[][];
  const at = new Map([...entries, ...bookings].map((r) => [r.id, r.updated_at]));
  return pairs.map((p) => (at.get(p.entry) ?? 0) - (at.get(p.booking) ?? 0));
}

/**
 * D1's rows_read for the desk's candidate query of one freed day (built by the
 * same code the desk runs, its parameters written in), and for a plain scan of
 * the location's waiting entries.
 */
function candidateReads(
  persist: string,
  workspaceId: string,
  locationId: string,
  stafferIds: string[],
  day: string,
) {
  // Built by the desk's own code (bench/worker: Workers types, so a process of its own).
  const inlined = execFileSync(
    "npx",
    ["tsx", "bench/worker/candidates-sql.ts", workspaceId, locationId, day, ...stafferIds],
    { encoding: "utf8" },
  );
  const scan = `SELECT * FROM waitlist_entries WHERE workspace_id = '${workspaceId}' AND location_id = '${locationId}' AND status = 'waiting' ORDER BY created_at`;
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
      `${inlined};\n${scan}`,
    ],
    {
      env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
      encoding: "utf8",
      maxBuffer: 1 << 28,
    },
  );
  const results = JSON.parse(out) as { meta?: { rows_read?: number } }[];
  return { candidates: results[0]?.meta?.rows_read ?? -1, scan: results[1]?.meta?.rows_read ?? -1 };
}
