import { rmSync } from "node:fs";
import { adminPost, BENCH_ADMIN_TOKEN } from "./open-salon";
import { type DevServer, queryD1, startDevServer, withDevServer } from "./server";
import { percentile } from "./stats";

/**
 * `npm run bench -- --scale-e2e`: availability at chain scale, end to end under
 * `wrangler dev` (what `npm start` runs), fresh local state:
 *
 * - one location (UTC) with 100 staffers working Mon–Sat 09:00–18:00 and 10
 *   services every one of them performs, made through the management and
 *   public APIs (real ids and keys);
 * - 4 bookings per staffer per working day (~100 per 31 days) over the next 64
 *   days and the past 180 (a location open for half a year: its history), as
 *   `calendar_entries` rows written straight into local D1. Each is a copy of
 *   the entry the app wrote for a real booking made through the API first, with
 *   its own id, staffer, source and times (the service's duration plus its
 *   buffer, as `busyEnd`). Slot search reads nothing else of a booking; the rows
 *   have no `bookings` row behind them and the calendar objects never hear of
 *   them, so this benchmarks reads only. Through the API, 80,000 bookings would
 *   take hours on two cores;
 * - then, sequentially after 3 warm-ups, 20 searches of 62 days for one service
 *   (any staffer) and 20 cart calendars of the 10 services over the same 62 days
 *   (`POST /locations/{uuid}/time-slots/cart`, its maximum range), one request at
 *   a time.
 *
 * Prints p50 and p95 of each operation's wall time (the client's) and of its D1
 * time, its D1 round trips, rows read and bytes returned (Server-Timing), and
 * last one JSON line of the numbers.
 */
const PORT = 8794;
/** Minutes of each service; the fifth and tenth have a 15-minute buffer (`pause`). */
const DURATIONS = [30, 45, 60, 75, 30, 45, 60, 75, 30, 45];
const BUFFERED = new Set([4, 9]);
/** Staffers made at once through the management API (its own limit is 120 per 10 s). */
const IN_FLIGHT = 10;
const DAY_MS = 86_400_000;

const date = (ms: number) => new Date(ms).toISOString().slice(0, 10);

interface Timing {
  wallMs: number;
  d1Ms: number;
  roundTrips: number;
  rowsRead: number;
  bytes: number;
  statements: number;
}

function timingOf(wallMs: number, header: string | null): Timing {
  const t = header ?? "";
  const num = (re: RegExp) => Number(re.exec(t)?.[1] ?? NaN);
  return {
    wallMs,
    d1Ms: num(/d1;dur=([\d.]+);desc="\d+ round trips"/),
    roundTrips: num(/d1;dur=[\d.]+;desc="(\d+) round trips"/),
    rowsRead: num(/d1-rows-read;desc="(\d+)"/),
    bytes: num(/d1-bytes-returned;desc="(\d+)"/),
    statements: num(/d1-statements;desc="(\d+)"/),
  };
}

export async function runScaleE2eBench({
  staff: STAFF = 100,
  daysAhead: DAYS_AHEAD = 64,
  daysPast: DAYS_PAST = 180,
  windowDays: WINDOW_DAYS = 62,
  warmup: WARMUP = 3,
  rounds: ROUNDS = 20,
  server: given,
}: {
  staff?: number;
  /** Days of seeded bookings ahead of today (more than the window) and behind it. */
  daysAhead?: number;
  daysPast?: number;
  /** Days each search and cart calendar covers (62: the cart calendar's maximum). */
  windowDays?: number;
  warmup?: number;
  rounds?: number;
  server?: DevServer;
} = {}): Promise<void> {
  const start = () => {
    rmSync(`.wrangler/bench-${PORT}`, { recursive: true, force: true });
    return startDevServer(PORT);
  };
  await withDevServer(given, start, async (server) => {
    const { base, persist } = server;
    // wrangler dev's local proxy drops a connection now and then: tried again; a 429 waits.
    const call = async (url: string, init: RequestInit): Promise<Response> => {
      for (let tries = 0; ; tries++) {
        const res = await fetch(url, init).catch(() => null);
        if (res && res.status !== 429 && res.status !== 503) return res;
        if (tries >= 20) throw new Error(`${init.method ?? "GET"} ${url}: ${res?.status}`);
        await new Promise((r) =>
          setTimeout(r, Number(res?.headers.get("retry-after") ?? 1) * 1000),
        );
      }
    };
    const created = async (res: Response) => {
      const text = await res.text();
      if (!res.ok) throw new Error(`${res.status}: ${text}`);
      return JSON.parse(text);
    };

    const setupStarted = performance.now();
    const ws = await adminPost(base, "/workspaces", {
      name: "Chain",
      country: "DE",
      currency: "EUR",
      timezone: "UTC",
    });
    const location = await adminPost(base, `/workspaces/${ws.uuid}/locations`, {
      name: "Flagship",
      timezone: "UTC",
      slot_step: 15,
    });
    const staffers: string[] = [];
    for (let i = 0; i < STAFF; i += IN_FLIGHT) {
      const made = await Promise.all(
        Array.from({ length: Math.min(IN_FLIGHT, STAFF - i) }, (_, k) =>
          call(`${base}/api/admin/v1/workspaces/${ws.uuid}/staffers`, {
            method: "POST",
            headers: {
              authorization: `Bearer ${BENCH_ADMIN_TOKEN}`,
              "content-type": "application/json",
            },
            body: JSON.stringify({
              first_name: `S${i + k}`,
              location_uuids: [location.uuid],
              schedule: [1, 2, 3, 4, 5, 6].map((weekday) => ({
                location_uuid: location.uuid,
                weekday,
                start: "09:00",
                end: "18:00",
              })),
            }),
          }).then(created),
        ),
      );
      staffers.push(...made.map((s: { uuid: string }) => s.uuid));
    }
    const headers = {
      authorization: `Bearer ${ws.api_key}`,
      workspace: ws.uuid as string,
      "content-type": "application/json",
    };
    const api = (path: string, method = "GET", body?: unknown) =>
      call(`${base}/api/public/v2${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    // Made after the staff: a service without staffer_uuids is every active staffer's.
    const services: string[] = [];
    for (const [i, duration] of DURATIONS.entries()) {
      const s = await created(
        await api("/services", "POST", {
          name: `Service ${i}`,
          duration,
          price: 1000 + 500 * i,
          ...(BUFFERED.has(i) ? { is_pause: true, pause: 15 } : {}),
        }),
      );
      services.push(s.uuid);
    }

    // The template: the entry the app writes for a booking, outside the searched window.
    const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
    let templateDay = today + (DAYS_AHEAD + 7) * DAY_MS;
    if (new Date(templateDay).getUTCDay() === 0) templateDay += DAY_MS;
    const booking = await created(
      await api("/bookings", "POST", {
        location_uuid: location.uuid,
        service_uuid: services[0],
        staffer_uuid: staffers[0],
        reserved_on: `${date(templateDay)}T09:00:00Z`,
        customer_phone: "+4915123456789",
        customer_first_name: "Template",
      }),
    );
    seedEntries(persist, ws.shard, booking.uuid, staffers, today, DAYS_PAST, DAYS_AHEAD);
    const [[counted] = []] = queryD1(
      persist,
      [`SELECT count(*) AS n FROM calendar_entries WHERE location_id = '${location.uuid}'`],
      { database: ws.shard },
    ) as { n: number }[][];
    console.log(
      `Scale e2e: ${STAFF} staffers, ${services.length} services, ${counted?.n} calendar entries (${DAYS_PAST} days back, ${DAYS_AHEAD} ahead) set up in ${Math.round((performance.now() - setupStarted) / 1000)} s`,
    );

    const from = date(today + DAY_MS);
    const to = date(today + WINDOW_DAYS * DAY_MS);
    const search = () =>
      api(
        `/locations/${location.uuid}/time-slots?service_uuid=${services[0]}&range_start=${from}&range_end=${to}`,
      );
    const cart = () =>
      api(`/locations/${location.uuid}/time-slots/cart`, "POST", {
        services: services.map((service_uuid) => ({ service_uuid })),
        range_start: from,
        range_end: to,
      });
    const measure = async (name: string, send: () => Promise<Response>) => {
      const runs: Timing[] = [];
      for (let i = 0; i < WARMUP + ROUNDS; i++) {
        const started = performance.now();
        const res = await send();
        const body = await res.text();
        const wall = performance.now() - started;
        if (!res.ok) throw new Error(`${name} → ${res.status}: ${body.slice(0, 500)}`);
        if (i >= WARMUP) runs.push(timingOf(wall, res.headers.get("server-timing")));
      }
      const p = (key: keyof Timing, q: number) =>
        Math.round(
          percentile(
            runs.map((r) => r[key]),
            q,
          ) * 10,
        ) / 10;
      const stats = {
        p50: p("wallMs", 50),
        p95: p("wallMs", 95),
        d1p50: p("d1Ms", 50),
        d1p95: p("d1Ms", 95),
        roundTrips: p("roundTrips", 50),
        roundTripsMax: Math.max(...runs.map((r) => r.roundTrips)),
        rowsRead: p("rowsRead", 50),
        bytes: p("bytes", 50),
        statements: p("statements", 50),
      };
      console.log(
        `${name}: wall p50 ${stats.p50} ms, p95 ${stats.p95} ms; D1 p50 ${stats.d1p50} ms, p95 ${stats.d1p95} ms, ${stats.roundTrips} round trip(s) (at most ${stats.roundTripsMax}), ${stats.statements} statements, ${stats.rowsRead} rows read, ${stats.bytes} bytes returned (${ROUNDS} sequential requests)`,
      );
      return stats;
    };
    const s = await measure(`Search, 1 service, ${STAFF} staffers, ${WINDOW_DAYS} days`, search);
    const c = await measure(
      `Cart calendar, ${services.length} services, ${WINDOW_DAYS} days`,
      cart,
    );
    console.log(
      JSON.stringify({
        e2e_search_100x62_p50_ms: s.p50,
        e2e_search_100x62_p95_ms: s.p95,
        e2e_search_100x62_d1_p50_ms: s.d1p50,
        e2e_search_100x62_d1_p95_ms: s.d1p95,
        e2e_cart10_100x62_p50_ms: c.p50,
        e2e_cart10_100x62_p95_ms: c.p95,
        e2e_cart10_100x62_d1_p50_ms: c.d1p50,
        e2e_cart10_100x62_d1_p95_ms: c.d1p95,
        round_trips_search: s.roundTrips,
        round_trips_search_max: s.roundTripsMax,
        round_trips_cart10: c.roundTrips,
        round_trips_cart10_max: c.roundTripsMax,
        rows_read_search: s.rowsRead,
        rows_read_cart10: c.rowsRead,
        bytes_returned_search: s.bytes,
        bytes_returned_cart10: c.bytes,
      }),
    );
  });
}

/**
 * Four bookings per staffer per working day (Mon–Sat), in four 135-minute
 * stretches from 09:00 (each starting 0–45 minutes in, on the quarter hour, so
 * none overlaps the next), of the services in turn: one statement, generated
 * in SQL. Every column but the id, staffer, source and times is the template
 * entry's (the real booking's), so the rows are what a booking writes.
 */
function seedEntries(
  persist: string,
  shard: string,
  bookingId: string,
  staffers: string[],
  today: number,
  daysPast: number,
  daysAhead: number,
) {
  const durations = DURATIONS.map(
    (minutes, k) => `(${k}, ${(minutes + (BUFFERED.has(k) ? 15 : 0)) * 60_000})`,
  ).join(", ");
  const uuid = (h: string) =>
    `lower(substr(${h}, 1, 8) || '-' || substr(${h}, 9, 4) || '-4' || substr(${h}, 14, 3) || '-8' || substr(${h}, 18, 3) || '-' || substr(${h}, 21, 12))`;
  queryD1(
    persist,
    [
      `WITH RECURSIVE
       days(d) AS (SELECT -${daysPast} UNION ALL SELECT d + 1 FROM days WHERE d < ${daysAhead}),
       stretch(j) AS (VALUES (0), (1), (2), (3)),
       staff(n, id) AS (SELECT key, value FROM json_each('${JSON.stringify(staffers)}')),
       busy(k, ms) AS (VALUES ${durations}),
       grid AS MATERIALIZED (
         SELECT staff.id AS staffer, hex(randomblob(16)) AS h, hex(randomblob(16)) AS g,
           ${today} + days.d * ${DAY_MS} + 9 * 3600000 + stretch.j * 135 * 60000
             + ((staff.n * 7 + (days.d + 1000) * 13 + stretch.j * 5) % 4) * 15 * 60000 AS start,
           (staff.n + days.d + 1000 + stretch.j) % 10 AS k
         FROM staff, days, stretch
         WHERE strftime('%w', (${today} + days.d * ${DAY_MS}) / 1000, 'unixepoch') <> '0'
       )
     INSERT INTO calendar_entries (id, workspace_id, staffer_id, resource_id, unit, location_id, kind,
       source_id, starts_at, ends_at, expires_at, yields, session_key, seats, capacity)
     SELECT ${uuid("grid.h")}, t.workspace_id, grid.staffer, t.resource_id, t.unit, t.location_id,
       t.kind, ${uuid("grid.g")}, grid.start, grid.start + busy.ms, t.expires_at, t.yields,
       t.session_key, t.seats, t.capacity
     FROM grid JOIN busy ON busy.k = grid.k,
       (SELECT * FROM calendar_entries WHERE source_id = '${bookingId}') AS t`,
    ],
    { database: shard },
  );
}
