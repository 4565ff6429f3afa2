import { rmSync } from "node:fs";
import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { runAvailabilityBench } from "../../bench/availability";
import { runBookingsBench } from "../../bench/bookings";
import { runDistanceBench, startDistanceServer } from "../../bench/distance";
import { runFanoutBench } from "../../bench/fanout";
import { runIcsBench } from "../../bench/ics";
import { CHEAPEST_SHAPE, runIcsWorstBench } from "../../bench/ics-worst";
import { LOAD_VARS, runLoad } from "../../bench/load";
import { REMINDERS_VARS, runRemindersBench } from "../../bench/reminders";
import { runReportsBench } from "../../bench/reports";
import { runRwgBench } from "../../bench/rwg";
import { runScaleBench } from "../../bench/scale";
import { runScaleE2eBench } from "../../bench/scale-e2e";
import { type DevServer, stopDevServers } from "../../bench/server";
import { runWaitlistBench, WAITLIST_VARS } from "../../bench/waitlist";

/**
 * Every mode of `npm run bench` and `npm run load`, each at a tiny size, against one
 * `wrangler dev` running the distance bench's Worker (bench/distance/worker.ts, which re-exports
 * every class src/index.ts exports) with a 1 ms distance and every mode's variables: a mode that
 * cannot start, or no longer prints its numbers, fails here rather than on the next person to
 * run it. The reminders mode waits for a whole minute mark (a reminder is due on one), so it
 * runs alongside all the others.
 * Each mode's output is checked for its numbers, not only for finishing.
 */

const DELAY_MS = 1;

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });

let server: DevServer | undefined;
const printed: string[] = [];

/** What `run` printed (console.log), as one text; other modes' lines may be among it. */
async function output(run: () => unknown): Promise<string> {
  const from = printed.length;
  await run();
  return printed.slice(from).join("\n");
}

const shared = () => {
  if (!server) throw new Error("the shared server did not start");
  return server;
};

/**
 * `wrangler dev` restarts the Worker when a file it watches changes (someone editing src/
 * during the run), and a request in flight then fails without an answer: tried again, a
 * few times. An answer, whatever its status, is the bench's to judge.
 */
const fetchOnce = globalThis.fetch;
const fetchAgain: typeof fetch = async (input, init) => {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetchOnce(input, init);
    } catch (error) {
      if (attempt >= 4) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
    }
  }
};

beforeAll(async () => {
  vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => {
    printed.push(args.map(String).join(" "));
  });
  server = await startDistanceServer(
    DELAY_MS,
    await freePort(),
    { ...REMINDERS_VARS, ...WAITLIST_VARS, ...LOAD_VARS },
    // Kept after the run (.wrangler is not committed), for a failure's post-mortem.
    ".wrangler/bench-modes-test.log",
  );
  // Once it answers: until then, a request without an answer is what the start waits out.
  vi.stubGlobal("fetch", fetchAgain);
});

afterAll(() => {
  // Also a server whose start this file stopped waiting for (the hook's timeout).
  stopDevServers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  if (server) rmSync(server.persist, { recursive: true, force: true });
});

describe("every bench mode at a tiny size", () => {
  let reminders: Promise<string> | undefined;

  it("reminders: starts first, its reminder due at the next minute mark", () => {
    reminders = output(() => runRemindersBench({ count: 1, leadMs: 3_000, server: shared() }));
    // Awaited by the reminders check below; a rejection is reported there.
    reminders.catch(() => undefined);
  });

  it("--distance: every operation's latency, hops and calls", async () => {
    const text = await output(() =>
      runDistanceBench({ delayMs: DELAY_MS, samples: 1, server: shared() }),
    );
    const rows = [...text.matchAll(/^ {2}(\S.*?)\s+(\d+)\s+(\d+\.\d\d)\s+(\d+)\s+(\d+)$/gm)].map(
      (m) => m[1],
    );
    expect(rows, text).toEqual([
      "list (GET /services)",
      "get (GET /bookings/{uuid})",
      "time-slot search (7 days)",
      "booking create",
      "booking create, credit",
      "cart (3 staffers)",
      "reschedule",
      "complete",
      "complete, credit",
      "POS pay",
    ]);
  });

  it("bookings: rates and latencies", async () => {
    const text = await output(() =>
      runBookingsBench({ clients: 2, bookings: 4, server: shared() }),
    );
    expect(text).toMatch(/one staffer calendar, sequential: +\d+ bookings\/s/);
    expect(text).toMatch(/one staffer calendar, 2 clients: +\d+ bookings\/s/);
    expect(text).toMatch(/POST \/bookings latency: +p50 [\d.]+ ms, p99 [\d.]+ ms/);
    expect(text).toMatch(/GET \/locations \(authenticated\): +p50 [\d.]+ ms/);
  });

  it("--fanout: calls and statements per request", async () => {
    const text = await output(() => runFanoutBench({ max: 2, server: shared() }));
    const rows = [
      ...text.matchAll(/^ {2}(\S.*?)\s+(\d{3})\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)$/gm),
    ];
    expect(rows.map((m) => m[1]).slice(0, 5), text).toEqual([
      "cart 2×2",
      "reservation 2×2",
      "cart 2×2, 2 resources each",
      "reservation 2×2, 2 resources",
      "reschedule 2 services × 2 res.",
    ]);
    expect(text).toMatch(/five concurrent reservations: \d+ calendar calls in all/);
  });

  it("--waitlist: freeing to offer, and the desk's pass over a crowd", async () => {
    const text = await output(() =>
      runWaitlistBench({ rounds: 1, entries: 4, days: 2, server: shared() }),
    );
    expect(text).toMatch(/freeing write → offer, 1 cancels .*: median \d+ ms, worst \d+ ms/);
    // The desk's own log line reached the log: the pass is reported with its numbers.
    expect(text).toMatch(
      /the pass for one freed day looked at \d+ entries, its candidate queries read \d+ rows \(the pass \d+ rows, \d+ statements, [\d.]+ ms\); freeing → offer .*: \d+ ms/,
    );
  });

  it("--scale-e2e: searches and cart calendars with their D1 time", async () => {
    const text = await output(() =>
      runScaleE2eBench({
        staff: 3,
        daysAhead: 9,
        daysPast: 2,
        windowDays: 7,
        warmup: 0,
        rounds: 1,
        server: shared(),
      }),
    );
    expect(text).toMatch(/Scale e2e: 3 staffers, 10 services, [1-9]\d* calendar entries/);
    for (const name of [
      "Search, 1 service, 3 staffers, 7 days",
      "Cart calendar, 10 services, 7 days",
    ])
      expect(text).toMatch(
        new RegExp(
          `${name}: wall p50 [\\d.]+ ms, p95 [\\d.]+ ms; D1 p50 [\\d.]+ ms, p95 [\\d.]+ ms, \\d+ round trip`,
        ),
      );
  });

  it("--reports: every report from the rollups and from the raw rows, equal; rebuilt = kept", async () => {
    let failed = -1;
    const text = await output(async () => {
      failed = await runReportsBench({ staffers: 2, days: 10, rebuild: true, server: shared() });
    });
    expect(text).toMatch(/^ {2}rows: bookings [1-9]\d*, booking_services [1-9]\d*, /m);
    const rows = [
      ...text.matchAll(
        /^ {2}(\S.*?)\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+(\d+)\s+(yes|NO)$/gm,
      ),
    ];
    expect(
      rows.map((m) => [m[1], m[9]]),
      text,
    ).toEqual(
      [
        "revenue by day",
        "revenue by week",
        "revenue by month",
        "revenue by staffer",
        "revenue by service",
        "revenue by payment_method",
        "utilization by staffer",
        "utilization by day",
        "no-shows by service",
        "no-shows by staffer",
        "no-shows by customer",
      ].map((name) => [name, "yes"]),
    );
    expect(text).toMatch(/rebuilt rollups equal the kept ones \(\d+ rows\): yes$/m);
    expect(text).toMatch(/^rollup totals equal raw-row totals: yes$/m);
    expect(failed).toBe(0);
  });

  it("--rwg: every booking server method's D1 and wall time, the one-slot race, the feed", async () => {
    let failed = -1;
    const text = await output(async () => {
      failed = await runRwgBench({
        staffers: 2,
        services: 2,
        calls: 2,
        racers: 3,
        feeds: 1,
        server: shared(),
      });
    });
    const rows = [
      ...text.matchAll(
        /^ {2}(\S.*?)\s+(\d+)\s+(\d+(?:–\d+)?)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)$/gm,
      ),
    ];
    expect(
      rows.map((m) => m[1]),
      text,
    ).toEqual([
      "HealthCheck",
      "CheckAvailability",
      "BatchAvailabilityLookup ×20",
      "BatchAvailabilityLookup ×500",
      "CreateBooking (new token)",
      "CreateBooking (replay)",
      "GetBookingStatus",
      "ListBookings (2 bookings)",
      "UpdateBooking (cancel)",
    ]);
    expect(text).toMatch(
      /CreateBooking race, 3 tokens for one staffer's slot at once: CONFIRMED 1, SLOT_UNAVAILABLE 2, other 0; .*: ok$/m,
    );
    expect(text).toMatch(
      /Availability feed, shard 0 .*: [1-9]\d* entries, [1-9]\d* bytes; wall p50 [\d.]+ ms/,
    );
    expect(failed).toBe(0);
  });

  it("availability (the default mode): both engines, equal results", async () => {
    const text = await output(() =>
      runAvailabilityBench({ samples: 1, warmup: 0, days: [31], staff: 2 }),
    );
    expect(text).toMatch(/results equal: +yes/);
    expect(text).toMatch(/ours: +[\d.]+ ms/);
    expect(text).toMatch(/slot-calculator: +[\d.]+ ms/);
    expect(text).toMatch(/31-day search, 2 required: +[\d.]+ ms/);
  });

  it("--scale: both engines, identical answers", async () => {
    const text = await output(() => runScaleBench({ staff: [2], days: [7] }));
    const rows = [...text.matchAll(/^ {2}(\w+) +2×7 +([\d.]+) +([\d.]+) +([\d.]+)× +(\w+)$/gm)];
    expect(
      rows.map((m) => [m[1], m[5]]),
      text,
    ).toEqual(["search", "seats", "cart1", "cart3", "cart10"].map((name) => [name, "yes"]));
  });

  it("--ics and --ics-worst: reading times", async () => {
    const ics = await output(() => runIcsBench(100, 1));
    expect(ics).toMatch(/ICS expansion: 100 events \(\d+ KB\) → \d+ busy intervals/);
    expect(ics).toMatch(/warm median [\d.]+ ms/);
    const worst = await output(() => runIcsWorstBench(1, [CHEAPEST_SHAPE]));
    expect(worst).toMatch(/→ 5000 busy, 0 skipped, \d+ steps; CPU cold \d+ ms, worst warm \d+ ms/);
    expect(worst).toMatch(/^worst: .*, \d+ ms of CPU$/m);
  });

  it("npm run load: invariants hold", async () => {
    let failed = -1;
    // Its own run stops the server before reading D1; here the reminders mode still needs it,
    // and the run reads D1 once its webhooks have drained (a locked read is tried again).
    const server = { ...shared(), stop: () => undefined };
    const text = await output(async () => {
      failed = await runLoad({ seconds: 3, clients: 2, workspaces: 2, plainGets: 10, server });
    });
    expect(text).toMatch(
      /Mixed load against wrangler dev: 2 clients for [\d.]+ s over 2 workspaces/,
    );
    // Each create takes the emptiest shard (the other modes' workspaces are on them too).
    expect(text).toMatch(/workspaces per shard \(create answers\): SHARD_\d \d/);
    expect(text).toMatch(/requests \d+, throughput [\d.]+ req\/s, bookings \d+/);
    expect(text).toMatch(/^D1 round trips per 2xx answer/m);
    expect(text).toMatch(/ok {3}rows on its own shard only, open there: 2\/2 workspaces/);
    expect(failed, text).toBe(0);
    expect(text).toMatch(/^PASS$/m);
  });

  it("--reminders: its reminder sent, with its lateness", async () => {
    const text = await reminders;
    expect(text).toMatch(/sent 1\/1; sent_at − scheduled_for: median -?\d+ ms/);
  }, 180_000);
});
