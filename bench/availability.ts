import { getSlots } from "slot-calculator";
import { searchSlots } from "../src/domain/availability";
import { buildFixture, FROM, LOCATION } from "./fixture";

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

const ours = (
  days: number,
  durationMin: number,
  bufferMin: number,
  step: number,
  aligned = false,
) => {
  const fixture = buildFixture(days, aligned);
  return () =>
    searchSlots({
      location: { ...LOCATION, slotStepMin: step },
      staffers: fixture.staffers,
      durationMin,
      bufferMin,
      fromDate: FROM,
      toDate: fixture.toDate,
      now: 0,
    });
};

/** The peer computes one calendar at a time: one call per staffer, summed. */
function peer(days: number, durationMin: number, aligned = false) {
  const fixture = buildFixture(days, aligned);
  const from = new Date(Date.parse(`${FROM}T00:00:00+01:00`)).toISOString();
  const to = new Date(Date.parse(`${fixture.toDate}T00:00:00+01:00`) + 86_400_000).toISOString();
  return () =>
    fixture.staffers.map((s) =>
      getSlots({
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
      }),
    );
}

/** Free starts per staffer on the aligned calendar, where both engines mean the same thing. */
function compareAligned(): { equal: boolean; starts: number } {
  const fixture = buildFixture(31, true);
  const mine = new Map<string, Set<number>>();
  for (const day of ours(31, 60, 0, 60, true)()) {
    for (const slot of day.slots)
      for (const id of slot.stafferIds) mine.set(id, (mine.get(id) ?? new Set()).add(slot.start));
  }
  const theirs = peer(31, 60, true)();
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

export async function runAvailabilityBench(): Promise<void> {
  const fixture = buildFixture(31);
  const candidates = fixture.staffers.length * 31 * 33;
  console.log(
    "Availability engine (20 staffers, 2,000 bookings, 200 blocked spots, 45 min + 15 buffer, 15-min grid)",
  );
  const t31 = time(ours(31, 45, 15, 15), 30);
  const t62 = time(ours(62, 45, 15, 15), 30);
  console.log(
    `  ours, 31-day search:         ${t31.toFixed(2)} ms  (~${candidates.toLocaleString("en")} candidate starts)`,
  );
  console.log(
    `  ours, 62-day search:         ${t62.toFixed(2)} ms  (ratio 62/31 = ${(t62 / t31).toFixed(2)}, target ≤ 2.2)`,
  );
  const tPeer = time(peer(31, 60), 3, 1);
  console.log(
    `  slot-calculator, 31 days:    ${tPeer.toFixed(0)} ms  (same calendars, 60-min occupancy, one call per staffer)`,
  );
  console.log(`  speed-up:                    ${(tPeer / t31).toFixed(0)}× (target ≥ 50×)`);
  const { equal, starts } = compareAligned();
  console.log(
    `  equal results on the inputs both express (hour-aligned hours and busy time, 60-min slots on a 60-min grid): ${equal ? "yes" : "NO"} (${starts} free starts compared)`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await runAvailabilityBench();
