import { busyFromIcs } from "../src/external-calendars/rules";
import { generateYear } from "../test/unit/external-calendars/year";
import { percentile } from "./stats";

/**
 * `npm run bench -- --ics`: how long reading a year of a busy personal calendar (2,000
 * VEVENTs, the unit test's generator) into busy time for the next 180 days takes under Node:
 * parsing, zone lookups, recurrence expansion and merging. The first run (cold: module and
 * zone caches empty) apart, then the median and p90 of warm runs.
 */
export function runIcsBench(events = 2000, runs = 15) {
  const now = Date.parse("2027-03-01T00:00:00Z");
  const text = generateYear(events, now);
  const options = { now, days: 180, defaultZone: "Europe/Berlin" };
  let started = performance.now();
  const busy = busyFromIcs(text, options);
  const cold = performance.now() - started;
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    started = performance.now();
    busyFromIcs(text, options);
    samples.push(performance.now() - started);
  }
  const kb = Math.round(new TextEncoder().encode(text).length / 1024);
  console.log(
    `ICS expansion: ${events} events (${kb} KB) → ${busy.length} busy intervals (merged)`,
  );
  console.log(`  cold ${cold.toFixed(1)} ms`);
  console.log(
    `  warm median ${percentile(samples, 50).toFixed(1)} ms, p90 ${percentile(samples, 90).toFixed(1)} ms (${runs} runs)`,
  );
}
