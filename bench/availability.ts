import { getSlots } from "slot-calculator";
import { searchSlots } from "../src/calendar/rules";
import { buildFixture, buildResources, FROM, LOCATION } from "./fixture";

const WEEKDAYS = [
  "Monday",
  "Tuesday",
  "Wednesday",
  "Thursday",
  "Friday",
  "Saturday",
  "Sunday",
] as const;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

function time(run: () => unknown, repeats: number, warmup = 3): number {
  for (let i = 0; i < warmup; i++) run();
  const samples: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const started = performance.now();
    run();
    samples.push(performance.now() - started);
  }
  return median(samples);
}

/** Staffers of every calendar built here: set by the run (fewer in the test suite's tiny run). */
let staffCount = 20;

/** The searched service of the resource run requires these two of the five resources. */
const REQUIRED = ["room-a", "basin"];

/**
 * Two runs compared fairly: both warmed up, then their samples taken in
 * alternation, so JIT warm-up and machine load fall on both alike.
 */
function timePair(a: () => unknown, b: () => unknown, repeats: number, warmup: number) {
  for (let i = 0; i < warmup; i++) {
    a();
    b();
  }
  const samples: [number[], number[]] = [[], []];
  for (let i = 0; i < repeats; i++) {
    [a, b].forEach((run, j) => {
      const started = performance.now();
      run();
      samples[j]?.push(performance.now() - started);
    });
  }
  return samples.map(median) as [number, number];
}

const ours = (
  days: number,
  durationMin: number,
  bufferMin: number,
  step: number,
  aligned = false,
  withResources = false,
  listStaffers = false,
) => {
  const fixture = buildFixture(days, aligned, 42, staffCount);
  const resources = withResources
    ? buildResources(days).filter((r) => REQUIRED.includes(r.id))
    : undefined;
  return () =>
    searchSlots({
      location: { ...LOCATION, slotStepMin: step },
      staffers: fixture.staffers,
      durationMin,
      bufferMin,
      fromDate: FROM,
      toDate: fixture.toDate,
      now: 0,
      resources,
      listStaffers,
    });
};

type PeerConfig = Parameters<typeof getSlots>[0];

/**
 * The peer's inputs, built before any timing: it takes ISO strings and weekday
 * names, and that conversion is ours to do, not its work. It computes one
 * calendar at a time: one call per staffer, summed.
 */
function peerConfigs(days: number, durationMin: number, aligned = false): PeerConfig[] {
  const fixture = buildFixture(days, aligned, 42, staffCount);
  const from = new Date(Date.parse(`${FROM}T00:00:00+01:00`)).toISOString();
  const to = new Date(Date.parse(`${fixture.toDate}T00:00:00+01:00`) + 86_400_000).toISOString();
  return fixture.staffers.map((s) => ({
    from,
    to,
    duration: durationMin,
    outputTimezone: LOCATION.timezone,
    availability: s.weekly.map((w) => ({
      day: WEEKDAYS[w.weekday - 1] ?? "Monday",
      from: w.start,
      to: w.end,
      timezone: LOCATION.timezone,
    })),
    unavailability: s.busy.map((b) => ({
      from: new Date(b.start).toISOString(),
      to: new Date(b.end).toISOString(),
    })),
  }));
}

const peer = (configs: PeerConfig[]) => () => configs.map((config) => getSlots(config));

/** Free starts per staffer on the aligned calendar, where both engines mean the same thing. */
function compareAligned(): { equal: boolean; starts: number } {
  const fixture = buildFixture(31, true, 42, staffCount);
  const mine = new Map<string, Set<number>>();
  for (const day of ours(31, 60, 0, 60, true, false, true)()) {
    for (const slot of day.slots)
      for (const id of slot.stafferIds ?? [])
        mine.set(id, (mine.get(id) ?? new Set()).add(slot.start));
  }
  const theirs = peer(peerConfigs(31, 60, true))();
  let equal = true;
  let starts = 0;
  fixture.staffers.forEach((s, i) => {
    const peerStarts = new Set(
      (theirs[i]?.availableSlots ?? []).map((slot) => Date.parse(slot.from)),
    );
    const own = mine.get(s.id) ?? new Set<number>();
    starts += own.size;
    if (peerStarts.size !== own.size || [...own].some((t) => !peerStarts.has(t))) equal = false;
  });
  return { equal, starts };
}

/** Both engines on one problem, the same samples and warm-up, inputs built outside the timers. */
export async function runAvailabilityBench({
  samples: SAMPLES = 15,
  warmup: WARMUP = 5,
  days: RANGES = [31, 62, 365],
  staff = 20,
}: {
  samples?: number;
  warmup?: number;
  /** The ranges of the salon problem's growth (31 is always timed: the base). */
  days?: number[];
  staff?: number;
} = {}): Promise<void> {
  staffCount = staff;
  console.log(
    `Availability engine (${staff} staffers Mon–Sat; ${(staff * 100).toLocaleString("en")} bookings and ${staff * 10} blocked spots per 31 days)`,
  );

  // Headline: the problem both engines express (hour-aligned hours and busy time,
  // a 60-min service without buffer on a 60-min grid), where results were checked equal.
  const { equal, starts } = compareAligned();
  const oursAligned = time(ours(31, 60, 0, 60, true), SAMPLES, WARMUP);
  const peerAligned = time(peer(peerConfigs(31, 60, true)), SAMPLES, WARMUP);
  console.log(
    "  Like for like (31 days, 60-min service, no buffer, 60-min grid, aligned calendars):",
  );
  console.log(
    `    results equal:             ${equal ? "yes" : "NO"} (${starts.toLocaleString("en")} free starts compared)`,
  );
  console.log(
    `    ours:                      ${oursAligned.toFixed(2)} ms  (median of ${SAMPLES})`,
  );
  console.log(
    `    slot-calculator:           ${peerAligned.toFixed(1)} ms  (median of ${SAMPLES})`,
  );
  console.log(
    `    HEADLINE speed-up:         ${(peerAligned / oursAligned).toFixed(0)}× on the same problem`,
  );

  // Ours on the problem a salon has: 45 min + 15 buffer on a 15-min grid, unaligned times.
  // Bookings grow with the range, so the growth shows the engine's real scaling.
  console.log("  Ours on a salon's problem (45 min + 15 buffer, 15-min grid, unaligned times):");
  const base = time(ours(31, 45, 15, 15), SAMPLES, WARMUP);
  for (const days of RANGES) {
    const t = days === 31 ? base : time(ours(days, 45, 15, 15), days === 365 ? 5 : SAMPLES, 1);
    console.log(
      `    ${String(days).padStart(3)}-day search:            ${t.toFixed(2).padStart(7)} ms  (${(t / days).toFixed(3)} ms/day; ×${(t / base).toFixed(2)} for ×${(days / 31).toFixed(2)} the days and bookings)`,
    );
  }

  // The same 31-day salon problem when the service also needs a room and a basin.
  const [plain, withResources] = timePair(
    ours(31, 45, 15, 15),
    ours(31, 45, 15, 15, false, true),
    SAMPLES,
    WARMUP,
  );
  const all = buildResources(31);
  console.log(
    `  With 5 resources (${all.map((r) => `${r.id} ×${r.units.length}`).join(", ")}; each unit ~110 busy spans per 31 days); the service requires ${REQUIRED.join(" and ")}:`,
  );
  console.log(
    `    31-day search, no resources: ${plain.toFixed(2).padStart(7)} ms  (median of ${SAMPLES}, samples alternating with the next line's)`,
  );
  console.log(
    `    31-day search, 2 required:   ${withResources.toFixed(2).padStart(7)} ms  (median of ${SAMPLES})`,
  );
  console.log(`    slowdown factor: ${(withResources / plain).toFixed(2)}× (target ≤ 1.5×)`);
  // Outside the timers: how much the resources bind, so the run is not a no-op.
  const count = (days: ReturnType<ReturnType<typeof ours>>) => {
    const slots = days.flatMap((d) => d.slots);
    return { starts: slots.length, bookable: slots.reduce((n, s) => n + s.quantity, 0) };
  };
  const without = count(ours(31, 45, 15, 15)());
  const limited = count(ours(31, 45, 15, 15, false, true)());
  console.log(
    `    listed starts ${without.starts.toLocaleString("en")} → ${limited.starts.toLocaleString("en")}; bookable places (sum of quantity) ${without.bookable.toLocaleString("en")} → ${limited.bookable.toLocaleString("en")}`,
  );

  // Beside it, labelled: the peer on the unaligned calendars, 60-min slots (it has no
  // buffer or grid), minute-by-minute map and Luxon formatting of each slot inside its call.
  const peerUnaligned = time(peer(peerConfigs(31, 60)), SAMPLES, WARMUP);
  console.log(
    `  Not like for like: slot-calculator on the unaligned 31 days, 60-min back-to-back slots: ${peerUnaligned.toFixed(0)} ms (${(peerUnaligned / base).toFixed(0)}× ours on the salon problem)`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await runAvailabilityBench();
