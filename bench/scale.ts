import {
  type CartService,
  firstCartFitPerDay,
  nearestStarts,
  nextCartFit,
  searchSlots,
  sessionKey,
} from "../src/calendar/rules";
import * as before from "../test/oracles/engine-before-scale";
import { buildFixture, FROM, type Fixture, LOCATION } from "./fixture";

/**
 * `npm run bench -- --scale`: the slot engine against the engine as it was
 * before the chain-scale work (kept in test/oracles), in the same run, on
 * the same calendars: 20/100/300 staffers × 31/62/365 days, 100 bookings
 * and 10 blocked spots per staffer per 31 days, Mon–Sat 09:00–18:00.
 * Every pair of runs is checked to give identical results before timing.
 */

const DAY = 86_400_000;
/** A baseline run predicted to take longer than this is not made (printed as skipped). */
const BASELINE_BUDGET_MS = 15_000;

/** A salon's ten services: durations and buffers of a long visit (5 h 35 min back to back). */
const SHAPES: [number, number][] = [
  [30, 0],
  [45, 5],
  [15, 0],
  [30, 10],
  [60, 0],
  [20, 5],
  [30, 0],
  [45, 5],
  [15, 0],
  [30, 0],
];

/** Every staffer performs the even services; two in three the odd ones (auto-allocated). */
function cartOf(fixture: Fixture, size: number): CartService[] {
  return SHAPES.slice(0, size).map(([durationMin, bufferMin], i) => ({
    durationMin,
    bufferMin,
    stafferIds: fixture.staffers.filter((_, k) => i % 2 === 0 || k % 3 !== 2).map((s) => s.id),
  }));
}

const toDateOf = (days: number) =>
  new Date(Date.parse(`${FROM}T00:00:00Z`) + (days - 1) * DAY).toISOString().slice(0, 10);

type Engine = typeof before;

interface Problem {
  name: string;
  run: (engine: Engine) => unknown;
}

function problems(fixture: Fixture, days: number): Problem[] {
  const toDate = toDateOf(days);
  const search = (engine: Engine) =>
    engine.searchSlots({
      location: LOCATION,
      staffers: fixture.staffers,
      durationMin: 45,
      bufferMin: 15,
      fromDate: FROM,
      toDate,
      now: 0,
    });
  const calendar = (size: number) => (engine: Engine) =>
    engine.firstCartFitPerDay({
      location: LOCATION,
      services: cartOf(fixture, size),
      staffers: fixture.staffers,
      fromDate: FROM,
      toDate,
      now: 0,
    });
  // A group class of 8 seats: every fifth booking of the calendars becomes a seat (1–3) of it.
  const classStaffers = fixture.staffers.map((s) => ({
    ...s,
    busy: s.busy.map((b, i) =>
      i % 5 === 0
        ? {
            ...b,
            end: b.start + 60 * 60_000,
            session: { key: sessionKey("class", s.id, b.start), seats: 1 + (i % 3), capacity: 8 },
          }
        : b,
    ),
  }));
  const seats = (engine: Engine) =>
    engine.searchSlots({
      location: LOCATION,
      staffers: classStaffers,
      durationMin: 60,
      bufferMin: 0,
      fromDate: FROM,
      toDate,
      now: 0,
      session: { serviceId: "class", capacity: 8, seats: 1 },
    });
  return [
    { name: "search", run: search },
    { name: "seats", run: seats },
    { name: "cart1", run: calendar(1) },
    { name: "cart3", run: calendar(3) },
    { name: "cart10", run: calendar(10) },
  ];
}

/** The new engine behind the same signatures as the old one. */
const current = {
  searchSlots,
  firstCartFitPerDay,
  nextCartFit,
  nearestStarts,
} as unknown as Engine;

/** What each engine answers, in one comparable form (the old search always lists staffers). */
function comparable(name: string, result: unknown): string {
  if (name !== "search" && name !== "seats") return JSON.stringify(result);
  const days = result as { date: string; slots: { start: number; stafferIds?: string[] }[] }[];
  return JSON.stringify(
    days.map((d) => [
      d.date,
      d.slots.map((s) => [s.start, (s as { quantity?: number }).quantity ?? s.stafferIds?.length]),
    ]),
  );
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** Median of runs: at least `min`, more while under ~0.6 s, at most 15 (warm-up not counted). */
function time(run: () => unknown, min: number): number {
  run();
  const samples: number[] = [];
  const started = performance.now();
  while (samples.length < min || (samples.length < 15 && performance.now() - started < 600)) {
    const t = performance.now();
    run();
    samples.push(performance.now() - t);
  }
  return median(samples);
}

const ms = (v: number | null) => (v === null ? "skipped" : v < 10 ? v.toFixed(2) : v.toFixed(1));

export function runScaleBench({
  staff: STAFF = [20, 100, 300],
  days: DAYS = [31, 62, 365],
}: {
  /** Staffers × days of the problems timed; the growth lines and summary read 20/100/300 × 62/365. */
  staff?: readonly number[];
  days?: readonly number[];
} = {}): void {
  console.log(
    "Availability at chain scale: new engine vs the engine before (same run, same calendars)",
  );
  console.log(
    "  Calendars: Mon–Sat 09:00–18:00 (every third staffer with a lunch gap), 100 bookings + 10 blocked spots per staffer per 31 days;",
  );
  console.log(
    "  search: one 45+15-min service, every staffer, 15-min grid; seats: a 60-min class of 8 seats (every fifth booking a seat of it);",
  );
  console.log(
    "  cartN: cart calendar of the first N of 10 services (5 h 35 min back to back), auto-allocated; calendars arrive in start order, as D1 reads them.",
  );
  // Both engines warmed up first, so the first row is not the JIT's.
  const first = { staff: STAFF[0] ?? 20, days: DAYS[0] ?? 31 };
  const warmup = buildFixture(first.days, false, 42, first.staff);
  for (const problem of problems(warmup, first.days)) {
    for (let i = 0; i < 5; i++) {
      problem.run(current);
      problem.run(before);
    }
  }
  const results = new Map<string, { now: number; old: number | null }>();
  const key = (name: string, staff: number, days: number) => `${name}_${staff}x${days}`;
  console.log(
    `  ${"problem".padEnd(8)} ${"staff×days".padEnd(10)} ${"new ms".padStart(9)} ${"before ms".padStart(10)} ${"speed-up".padStart(9)}  identical`,
  );
  for (const staff of STAFF) {
    for (const days of DAYS) {
      const fixture = buildFixture(days, false, 42, staff);
      for (const problem of problems(fixture, days)) {
        const now = time(() => problem.run(current), 3);
        // Predict the old engine's time from its last run at fewer days (it grew with days²).
        const fewer = DAYS.filter((d) => d < days).at(-1);
        const previous = fewer ? results.get(key(problem.name, staff, fewer))?.old : undefined;
        const predicted = previous ? previous * (days / (fewer ?? days)) ** 2 : 0;
        let old: number | null = null;
        let same = "—";
        if (previous !== null && predicted < BASELINE_BUDGET_MS) {
          const started = performance.now();
          const answer = problem.run(before);
          const once = performance.now() - started;
          same =
            comparable(problem.name, problem.run(current)) === comparable(problem.name, answer)
              ? "yes"
              : "NO";
          // A slow baseline is timed once (its comparison run); a fast one like the new engine.
          old = once > 2000 ? once : time(() => problem.run(before), 3);
        }
        results.set(key(problem.name, staff, days), { now, old });
        console.log(
          `  ${problem.name.padEnd(8)} ${`${staff}×${days}`.padEnd(10)} ${ms(now).padStart(9)} ${ms(old).padStart(10)} ${(old === null ? "—" : `${(old / now).toFixed(1)}×`).padStart(9)}  ${same}`,
        );
      }
    }
  }

  const get = (name: string, staff: number, days: number) =>
    results.get(key(name, staff, days)) ?? { now: Number.NaN, old: null };
  console.log("  Growth (new engine; before in brackets):");
  for (const name of ["search", "seats", "cart1", "cart3", "cart10"]) {
    const staffGrowth = (a: number, b: number) => {
      const x = get(name, a, 62);
      const y = get(name, b, 62);
      const old = x.old && y.old ? ` [${(y.old / x.old).toFixed(2)}×]` : "";
      return `${(y.now / x.now).toFixed(2)}×${old}`;
    };
    const dayGrowth = (staff: number) => {
      const x = get(name, staff, 62);
      const y = get(name, staff, 365);
      const old = x.old && y.old ? ` [${(y.old / x.old).toFixed(2)}×]` : "";
      return `${(y.now / x.now).toFixed(2)}×${old}`;
    };
    console.log(
      `    ${name.padEnd(7)} staff 20→100 at 62 days (×5): ${staffGrowth(20, 100)}; 100→300 (×3): ${staffGrowth(100, 300)}; days 62→365 at 100 staff (×5.9): ${dayGrowth(100)}`,
    );
  }

  const summary = {
    cart10_100x62_ms: round(get("cart10", 100, 62).now),
    search_300x62_ms: round(get("search", 300, 62).now),
    growth_100_to_300: round(get("cart10", 300, 62).now / get("cart10", 100, 62).now),
    baseline_cart10_100x62_ms: round(get("cart10", 100, 62).old),
    baseline_search_300x62_ms: round(get("search", 300, 62).old),
    seats_300x62_ms: round(get("seats", 300, 62).now),
    baseline_seats_300x62_ms: round(get("seats", 300, 62).old),
    search_20x31_ms: round(get("search", 20, 31).now),
    baseline_search_20x31_ms: round(get("search", 20, 31).old),
    cart10_20x31_ms: round(get("cart10", 20, 31).now),
    baseline_cart10_20x31_ms: round(get("cart10", 20, 31).old),
    cart10_300x62_ms: round(get("cart10", 300, 62).now),
    baseline_growth_100_to_300: round(
      (get("cart10", 300, 62).old ?? Number.NaN) / (get("cart10", 100, 62).old ?? Number.NaN),
    ),
  };
  console.log(JSON.stringify(summary));
}

const round = (v: number | null) =>
  v === null || !Number.isFinite(v) ? null : Math.round(v * 100) / 100;

if (import.meta.url === `file://${process.argv[1]}`) runScaleBench();
