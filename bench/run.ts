import { runAvailabilityBench } from "./availability";
import { runBookingsBench } from "./bookings";
import { runDistanceBench } from "./distance";
import { runFanoutBench } from "./fanout";
import { runIcsBench } from "./ics";
import { runIcsWorstBench } from "./ics-worst";
import { runRemindersBench } from "./reminders";
import { runReportsBench } from "./reports";
import { runRwgBench } from "./rwg";
import { runScaleBench } from "./scale";
import { runScaleE2eBench } from "./scale-e2e";
import { runWaitlistBench } from "./waitlist";
import { runWidgetBench } from "./widget";

// `npm run bench`: every benchmark prints its numbers; none of them asserts timings.
// `npm run bench -- --distance`: only the distance mode (a fixed delay on every D1 and calendar call).
// `npm run bench -- --fanout`: only calendar calls and D1 statements per request at the maxima.
// `npm run bench -- --reminders`: only how late reminders are sent under wrangler dev (its alarms).
// `npm run bench -- --waitlist`: only freeing-to-offer times and matching reads under wrangler dev.
// `npm run bench -- --scale`: only the slot engine at 20/100/300 staffers × 31/62/365 days, against the engine before.
// `npm run bench -- --ics`: only reading a 2,000-event ICS calendar into busy time (pure, no server).
// `npm run bench -- --ics-worst`: only the CPU time of the costliest calendars within the limits.
// `npm run bench -- --scale-e2e`: only 62-day searches and 10-service cart calendars of a 100-staffer
// location under wrangler dev (wall time, D1 time, round trips, rows read).
// `npm run bench -- --reports [--size <staffers>] [--days <n>] [--rebuild]`: only the reports over a seeded year of
// one location, from the rollups and from the raw rows (wall time, D1 time, rows read); fails if they differ.
// `npm run bench -- --widget`: only the booking widget in Chromium (keyboard presses to the day's last
// time, cold-load JS bytes and time to the first time shown); `npm run build` first.
// `npm run bench -- --rwg`: only the Reserve with Google booking server under wrangler dev (each
// method's D1 round trips, D1 and wall time; a 10-token race for one slot; the availability feed).
if (process.argv.includes("--scale")) {
  runScaleBench();
} else if (process.argv.includes("--distance")) {
  await runDistanceBench();
} else if (process.argv.includes("--fanout")) {
  await runFanoutBench();
} else if (process.argv.includes("--ics-worst")) {
  runIcsWorstBench();
} else if (process.argv.includes("--ics")) {
  runIcsBench();
} else if (process.argv.includes("--waitlist")) {
  await runWaitlistBench();
} else if (process.argv.includes("--scale-e2e")) {
  await runScaleE2eBench();
} else if (process.argv.includes("--widget")) {
  await runWidgetBench();
} else if (process.argv.includes("--reports")) {
  process.exit((await runReportsBench()) > 0 ? 1 : 0);
} else if (process.argv.includes("--rwg")) {
  process.exit((await runRwgBench()) > 0 ? 1 : 0);
} else if (process.argv.includes("--reminders")) {
  await runRemindersBench();
} else {
  await runAvailabilityBench();
  console.log("");
  await runBookingsBench();
}
process.exit(0);
