import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createOpenSalon } from "./open-salon";
import { type DevServer, queryD1, startDevServer, withDevServer } from "./server";
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
 *    (20 a day) and wanting a time that never fits: the pass that offers one
 *    freed day, as the desk reports it (a log line): entries looked at, rows
 *    D1 read for the candidate queries and for the whole pass (D1's own
 *    `rows_read`), and the freeing-to-offer time for a fitting entry queued
 *    behind that day's 20.
 */
const PORT = 8796;
const IN_FLIGHT = 10;
const DAY_MS = 86_400_000;
const HOUR = 3_600_000;

const iso = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");
const date = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);

export const WAITLIST_VARS = { MANAGE_TOKEN_SECRET: "bench-manage-token-secret" };

export async function runWaitlistBench({
  rounds: ROUNDS = 20,
  entries: ENTRIES = 1_000,
  days: DAYS = 50,
  server: given,
}: {
  /** Cancels with an entry waiting for the freed slot. */
  rounds?: number;
  /** Waiting entries that never fit, spread over `days` days (a multiple of it). */
  entries?: number;
  days?: number;
  /** A server started with WAITLIST_VARS (its log is read for the desk's passes); else its own. */
  server?: DevServer;
} = {}): Promise<void> {
  const start = () =>
    startDevServer(PORT, WAITLIST_VARS, undefined, join(tmpdir(), `waitlist-bench-${PORT}.log`));
  await withDevServer(given, start, async (server) => {
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
      // wrangler dev's local proxy resets a request now and then under load ("worker
      // restarted", or the connection dropped): tried again, a few times.
      const attempt = () => send().catch(() => null);
      let res = await attempt();
      for (let tries = 0; (!res || res.status === 503) && tries < 3; tries++) res = await attempt();
      if (!res) throw new Error(`${method} ${path}: no answer`);
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
    const latencies = latency(server.persist, salon.shard, pairs);
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
    const [behind] = latency(server.persist, salon.shard, [crowd]);
    // The desk reports each pass (a log line): the pass that offered the crowded day's time.
    const pass = deskPasses(server.logFile)
      .filter((p) => p.offers > 0)
      .at(-1);
    console.log(
      `Waitlist: with ${ENTRIES} waiting, the pass for one freed day looked at ${pass?.candidates} entries, its candidate queries read ${pass?.candidate_rows_read} rows (the pass ${pass?.rows_read} rows, ${pass?.d1_statements} statements, ${pass?.ms} ms); freeing → offer for the entry behind that day's ${ENTRIES / DAYS}: ${behind} ms`,
    );
    console.log(
      JSON.stringify({
        waitlist_offer_median_ms: percentile(latencies, 50),
        waitlist_offer_worst_ms: Math.max(...latencies),
        waitlist_crowd_candidates: pass?.candidates,
        waitlist_candidate_rows_read: pass?.candidate_rows_read,
        waitlist_pass_rows_read: pass?.rows_read,
        waitlist_offer_behind_crowd_ms: behind,
      }),
    );
  });
}

/** Offer time minus cancel time per pair, in ms, from D1. */
function latency(
  persist: string,
  shard: string,
  pairs: { booking: string; entry: string }[],
): number[] {
  const ids = (xs: string[]) => xs.map((x) => `'${x}'`).join(",");
  const [entries = [], bookings = []] = queryD1(
    persist,
    [
      `SELECT id, updated_at FROM waitlist_entries WHERE id IN (${ids(pairs.map((p) => p.entry))})`,
      `SELECT id, updated_at FROM bookings WHERE id IN (${ids(pairs.map((p) => p.booking))})`,
    ],
    { database: shard },
  ) as { id: string; updated_at: number }[][];
  const at = new Map([...entries, ...bookings].map((r) => [r.id, r.updated_at]));
  return pairs.map((p) => (at.get(p.entry) ?? 0) - (at.get(p.booking) ?? 0));
}

interface DeskPass {
  candidates: number;
  offers: number;
  candidate_rows_read: number;
  rows_read: number;
  d1_statements: number;
  ms: number;
}

/** The desk's own report of each pass, from the Worker's log lines. */
function deskPasses(logFile: string): DeskPass[] {
  return readFileSync(logFile, "utf8")
    .split("\n")
    .filter((line) => line.includes('"waitlist desk pass"'))
    .map((line) => JSON.parse(line.slice(line.indexOf("{"))) as DeskPass);
}
