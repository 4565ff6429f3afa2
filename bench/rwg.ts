import { BENCH_ADMIN_TOKEN, createOpenSalon } from "./open-salon";
import { type DevServer, startDevServer, withDevServer } from "./server";
import { percentile } from "./stats";

/**
 * `npm run bench -- --rwg`: the Reserve with Google booking server (src/reserve-with-google/)
 * under `wrangler dev` (what `npm start` runs), as Google's Actions Center calls it:
 *
 * - a salon of `staffers` staffers (20) at one UTC location open around the clock
 *   (bench/open-salon.ts) and `services` services (10) every one of them performs, with the
 *   booking server enabled (PUT /workspaces/{ws}/rwg) and called with its Basic auth;
 * - each method `calls` times (30), one call at a time: HealthCheck, CheckAvailability,
 *   BatchAvailabilityLookup of 20 and of 500 slot times, CreateBooking with a new token (one
 *   Google user, a free start each), the same requests again (replays: the stored answer),
 *   GetBookingStatus, ListBookings (the user's `calls` bookings), UpdateBooking cancelling each;
 *   every answer is checked (CONFIRMED, the replay byte for byte, CANCELED …);
 * - `racers` (10) CreateBooking for one slot of one named staffer, 10 users and tokens, all
 *   started together: exactly one must be CONFIRMED, the rest SLOT_UNAVAILABLE;
 * - the availability feed (shard 0: the location's next 30 days), `feeds` (3) times: wall time,
 *   bytes and entries.
 *
 * Per method: D1 round trips and D1 time (Server-Timing `d1`), and p50/p95 of the wall time
 * (the client's). The booking server's calls share one allowance per workspace
 * (API_RATE_LIMIT, 300 per 10 s): the client keeps under it, so no call waits out a 429.
 * Returns the number of failed checks (the race's).
 */
const PORT = 8792;
/** Minutes of each service (cycled when there are more than ten). */
const DURATIONS = [30, 45, 60, 75, 30, 45, 60, 75, 30, 45];
const DAY_MS = 86_400_000;
const MIN_MS = 60_000;
/** Calls to the booking server per 10 s the client allows itself (the limiter's is 300). */
const PER_WINDOW = 280;
const WINDOW_MS = 10_000;

interface Call {
  status: number;
  text: string;
  wallMs: number;
  d1Ms: number;
  roundTrips: number;
}

interface Row {
  name: string;
  calls: Call[];
}

const sec = (ms: number) => String(Math.floor(ms / 1000));

export async function runRwgBench({
  staffers: STAFFERS = 20,
  services: SERVICES = 10,
  calls: CALLS = 30,
  racers: RACERS = 10,
  feeds: FEEDS = 3,
  server: given,
}: {
  staffers?: number;
  services?: number;
  /** Calls of each method, one at a time. */
  calls?: number;
  /** CreateBooking requests for one slot, started together. */
  racers?: number;
  /** Fetches of the availability feed. */
  feeds?: number;
  server?: DevServer;
} = {}): Promise<number> {
  return withDevServer(
    given,
    () => startDevServer(PORT),
    async ({ base }) => {
      const setupStarted = performance.now();
      const salon = await createOpenSalon(base, { staffers: STAFFERS, slotStep: 15 });
      const apiHeaders = {
        authorization: `Bearer ${salon.apiKey}`,
        workspace: salon.workspaceId,
        "content-type": "application/json",
      };
      const services: { id: string; durationSec: number }[] = [];
      for (let i = 0; i < SERVICES; i++) {
        const duration = DURATIONS[i % DURATIONS.length] ?? 30;
        const res = await fetch(`${base}/api/public/v2/services`, {
          method: "POST",
          headers: apiHeaders,
          body: JSON.stringify({ name: `Service ${i}`, duration, price: 1000 + 500 * i }),
        });
        const text = await res.text();
        if (!res.ok) throw new Error(`POST /services → ${res.status}: ${text}`);
        services.push({ id: JSON.parse(text).uuid as string, durationSec: duration * 60 });
      }
      const username = `bench-${salon.workspaceId.slice(0, 8)}-${Date.now().toString(36)}`;
      const password = `pw-${crypto.randomUUID()}`;
      const saved = await fetch(`${base}/api/admin/v1/workspaces/${salon.workspaceId}/rwg`, {
        method: "PUT",
        headers: {
          authorization: `Bearer ${BENCH_ADMIN_TOKEN}`,
          "content-type": "application/json",
        },
        body: JSON.stringify({ enabled: true, username, password }),
      });
      if (!saved.ok) throw new Error(`PUT /rwg → ${saved.status}: ${await saved.text()}`);
      const basic = `Basic ${btoa(`${username}:${password}`)}`;
      console.log(
        `Reserve with Google under wrangler dev: ${STAFFERS} staffers, ${SERVICES} services, booking server enabled; set up in ${Math.round((performance.now() - setupStarted) / 1000)} s`,
      );

      // The client's side of the per-workspace allowance: a sliding window of recent calls.
      const sent: number[] = [];
      const pace = async () => {
        for (;;) {
          const now = Date.now();
          while (sent.length && (sent[0] ?? 0) <= now - WINDOW_MS) sent.shift();
          if (sent.length < PER_WINDOW) break;
          await new Promise((r) => setTimeout(r, (sent[0] ?? now) + WINDOW_MS - now + 5));
        }
        sent.push(Date.now());
      };

      /** One booking server call, timed; a dropped connection (wrangler dev's proxy) is tried again. */
      const rwg = async (method: string, body?: unknown): Promise<Call> => {
        for (let tries = 0; ; tries++) {
          await pace();
          const t0 = performance.now();
          const res = await fetch(`${base}/rwg/v3/${method}`, {
            method: body === undefined ? "GET" : "POST",
            headers: { authorization: basic, "content-type": "application/json" },
            ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          }).catch(() => null);
          const text = res ? await res.text() : "";
          const wallMs = performance.now() - t0;
          if (res && res.status !== 429 && res.status !== 503) {
            const timing = res.headers.get("server-timing") ?? "";
            const d1 = /d1;dur=([\d.]+);desc="(\d+) round trips"/.exec(timing);
            return {
              status: res.status,
              text,
              wallMs,
              d1Ms: Number(d1?.[1] ?? NaN),
              roundTrips: Number(d1?.[2] ?? NaN),
            };
          }
          if (tries >= 5) throw new Error(`${method}: ${res?.status ?? "no answer"} ${text}`);
          const wait = Number(res?.headers.get("retry-after") ?? 0.5) * 1000;
          await new Promise((r) => setTimeout(r, wait));
        }
      };
      const ok = (method: string, call: Call) => {
        if (call.status !== 200) throw new Error(`${method} → ${call.status}: ${call.text}`);
        // eslint-disable-next-line @typescript-eslint/no-explicit-any -- proto JSON, checked field by field
        return JSON.parse(call.text) as any;
      };

      const merchant = salon.location;
      const firstDay = Math.ceil((Date.now() + DAY_MS) / DAY_MS) * DAY_MS;
      /**
       * The i-th slot time of the lookups: services in turn, starts 15 minutes apart from 08:00
       * to 21:45 of day 1, then of the next day (a visit across midnight is no slot).
       */
      const slotTime = (i: number) => {
        const service = services[i % services.length] ?? services[0];
        const k = Math.floor(i / services.length);
        return {
          service_id: service?.id ?? "",
          start_sec: sec(
            firstDay + Math.floor(k / 56) * DAY_MS + 8 * 60 * MIN_MS + (k % 56) * 15 * MIN_MS,
          ),
          duration_sec: String(service?.durationSec ?? 1800),
        };
      };
      const slotOf = (i: number) => ({ merchant_id: merchant, ...slotTime(i) });
      const batch = (size: number) => ({
        merchant_id: merchant,
        slot_time: Array.from({ length: size }, (_, i) => slotTime(i)),
      });
      const user = {
        user_id: "4242424242424242424",
        given_name: "Anna",
        family_name: "Berg",
        telephone: "+49 151 55501234",
        email: "anna@example.com",
      };
      const first = services[0] ?? { id: "", durationSec: 1800 };
      /** The i-th booking: service 1, one start an hour apart from day 2 on, anyone free. */
      const createRequest = (i: number) => ({
        slot: {
          merchant_id: merchant,
          service_id: first.id,
          start_sec: sec(firstDay + DAY_MS + i * 60 * MIN_MS),
          duration_sec: String(first.durationSec),
        },
        user_information: user,
        idempotency_token: `bench-${crypto.randomUUID()}`,
      });

      const rows: Row[] = [];
      const measure = async (name: string, call: (i: number) => Promise<Call>) => {
        const calls: Call[] = [];
        for (let i = 0; i < CALLS; i++) calls.push(await call(i));
        rows.push({ name, calls });
        return calls;
      };

      await measure("HealthCheck", async () => {
        const c = await rwg("HealthCheck");
        ok("HealthCheck", c);
        return c;
      });
      await measure("CheckAvailability", async (i) => {
        const c = await rwg("CheckAvailability", { slot: slotOf(i) });
        const body = ok("CheckAvailability", c);
        if (!(Number(body.count_available) > 0))
          throw new Error(`CheckAvailability: nothing free at an open slot: ${c.text}`);
        return c;
      });
      for (const size of [20, 500]) {
        await measure(`BatchAvailabilityLookup ×${size}`, async () => {
          const c = await rwg("BatchAvailabilityLookup", batch(size));
          const body = ok("BatchAvailabilityLookup", c);
          const answers = body.slot_time_availability as { available: boolean }[];
          if (answers.length !== size || answers.some((a) => !a.available))
            throw new Error(`BatchAvailabilityLookup ×${size}: ${c.text.slice(0, 500)}`);
          return c;
        });
      }
      const requests = Array.from({ length: CALLS }, (_, i) => createRequest(i));
      const created: { id: string; text: string }[] = [];
      await measure("CreateBooking (new token)", async (i) => {
        const c = await rwg("CreateBooking", requests[i]);
        const body = ok("CreateBooking", c);
        if (body.booking?.status !== "CONFIRMED") throw new Error(`CreateBooking: ${c.text}`);
        created.push({ id: body.booking.booking_id as string, text: c.text });
        return c;
      });
      await measure("CreateBooking (replay)", async (i) => {
        const c = await rwg("CreateBooking", requests[i]);
        ok("CreateBooking", c);
        if (c.text !== created[i]?.text)
          throw new Error(`CreateBooking replay answered otherwise: ${c.text}`);
        return c;
      });
      await measure("GetBookingStatus", async (i) => {
        const c = await rwg("GetBookingStatus", { booking_id: created[i]?.id });
        const body = ok("GetBookingStatus", c);
        if (body.booking_status !== "CONFIRMED") throw new Error(`GetBookingStatus: ${c.text}`);
        return c;
      });
      await measure(`ListBookings (${CALLS} bookings)`, async () => {
        const c = await rwg("ListBookings", { user_id: user.user_id });
        const body = ok("ListBookings", c);
        if (body.bookings?.length !== CALLS)
          throw new Error(`ListBookings: ${body.bookings?.length} bookings, not ${CALLS}`);
        return c;
      });
      await measure("UpdateBooking (cancel)", async (i) => {
        const c = await rwg("UpdateBooking", {
          booking: { booking_id: created[i]?.id, status: "CANCELED" },
        });
        const body = ok("UpdateBooking", c);
        if (body.booking?.status !== "CANCELED") throw new Error(`UpdateBooking: ${c.text}`);
        return c;
      });

      const fmt = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : "-");
      const span = (values: number[]) => {
        const known = values.filter(Number.isFinite);
        if (!known.length) return "-";
        const lo = Math.min(...known);
        const hi = Math.max(...known);
        return lo === hi ? String(lo) : `${lo}–${hi}`;
      };
      console.log(`Booking server, ${CALLS} calls of each, one at a time:`);
      console.log(
        `  ${"method".padEnd(30)} ${"calls".padStart(5)} ${"D1 trips".padStart(8)} ${"D1 p50".padStart(7)} ${"D1 p95".padStart(7)} ${"wall p50".padStart(8)} ${"wall p95".padStart(8)}  (ms)`,
      );
      const summary: Record<string, unknown> = {};
      for (const { name, calls } of rows) {
        const d1 = calls.map((c) => c.d1Ms);
        const wall = calls.map((c) => c.wallMs);
        const line = {
          round_trips: span(calls.map((c) => c.roundTrips)),
          d1_p50_ms: Number(fmt(percentile(d1, 50))),
          d1_p95_ms: Number(fmt(percentile(d1, 95))),
          wall_p50_ms: Number(fmt(percentile(wall, 50))),
          wall_p95_ms: Number(fmt(percentile(wall, 95))),
        };
        summary[name] = line;
        console.log(
          `  ${name.padEnd(30)} ${String(calls.length).padStart(5)} ${line.round_trips.padStart(8)} ${fmt(line.d1_p50_ms).padStart(7)} ${fmt(line.d1_p95_ms).padStart(7)} ${fmt(line.wall_p50_ms).padStart(8)} ${fmt(line.wall_p95_ms).padStart(8)}`,
        );
      }

      // The race: one staffer's slot on a day after the bookings above, asked for by `racers`
      // users at once.
      const raceStart = firstDay + (Math.ceil(CALLS / 24) + 2) * DAY_MS + 10 * 60 * MIN_MS;
      const raced = await Promise.all(
        Array.from({ length: RACERS }, (_, i) =>
          rwg("CreateBooking", {
            slot: {
              merchant_id: merchant,
              service_id: first.id,
              start_sec: sec(raceStart),
              duration_sec: String(first.durationSec),
              resources: { staff_id: salon.staffers[0] },
            },
            user_information: {
              ...user,
              user_id: String(5_000_000_000_000_000_000n + BigInt(i)),
              telephone: `+49 151 ${String(66_600_000 + i)}`,
            },
            idempotency_token: `bench-race-${crypto.randomUUID()}`,
          }),
        ),
      );
      const outcomes = raced.map((c) => {
        if (c.status !== 200) return `HTTP ${c.status} ${c.text.slice(0, 200)}`;
        const body = JSON.parse(c.text);
        return (
          (body.booking?.status as string | undefined) ??
          (body.booking_failure?.cause as string | undefined) ??
          "?"
        );
      });
      const count = (what: string) => outcomes.filter((o) => o === what).length;
      const confirmed = count("CONFIRMED");
      const unavailable = count("SLOT_UNAVAILABLE");
      const other = RACERS - confirmed - unavailable;
      const raceOk = confirmed === 1 && other === 0;
      const raceWall = raced.map((c) => c.wallMs);
      console.log(
        `CreateBooking race, ${RACERS} tokens for one staffer's slot at once: CONFIRMED ${confirmed}, SLOT_UNAVAILABLE ${unavailable}, other ${other}${other ? ` (${outcomes.filter((o) => o !== "CONFIRMED" && o !== "SLOT_UNAVAILABLE").join(", ")})` : ""}; wall p50 ${fmt(percentile(raceWall, 50))} ms, max ${fmt(Math.max(...raceWall))} ms: ${raceOk ? "ok" : "FAILED (exactly one must be CONFIRMED)"}`,
      );

      // The availability feed of the location (shard 0), as Google loads it.
      const feedWall: number[] = [];
      const feedD1: number[] = [];
      let bytes = 0;
      let entries = 0;
      let feedTrips = "-";
      for (let i = 0; i < FEEDS; i++) {
        const t0 = performance.now();
        const res = await fetch(
          `${base}/api/admin/v1/workspaces/${salon.workspaceId}/rwg/feeds/availability.json?shard=0`,
          { headers: { authorization: `Bearer ${BENCH_ADMIN_TOKEN}` } },
        );
        const buf = new Uint8Array(await res.arrayBuffer());
        feedWall.push(performance.now() - t0);
        const text = new TextDecoder().decode(buf);
        if (!res.ok) throw new Error(`availability feed → ${res.status}: ${text.slice(0, 500)}`);
        const d1 = /d1;dur=([\d.]+);desc="(\d+) round trips"/.exec(
          res.headers.get("server-timing") ?? "",
        );
        feedD1.push(Number(d1?.[1] ?? NaN));
        feedTrips = d1?.[2] ?? "-";
        bytes = buf.byteLength;
        const feed = JSON.parse(text) as { service_availability: { availability: unknown[] }[] };
        entries = feed.service_availability.reduce((n, s) => n + s.availability.length, 0);
      }
      console.log(
        `Availability feed, shard 0 (30 days, ${SERVICES} services, open 24 h): ${entries} entries, ${bytes} bytes; wall p50 ${fmt(percentile(feedWall, 50))} ms, max ${fmt(Math.max(...feedWall))} ms over ${FEEDS}; D1 ${feedTrips} round trips, p50 ${fmt(percentile(feedD1, 50))} ms`,
      );
      console.log(
        JSON.stringify({
          rwg: summary,
          race: { racers: RACERS, confirmed, slot_unavailable: unavailable, other },
          feed: {
            entries,
            bytes,
            wall_p50_ms: Number(fmt(percentile(feedWall, 50))),
            round_trips: feedTrips,
          },
        }),
      );
      return raceOk ? 0 : 1;
    },
  );
}
