import { runAvailabilityBench } from "./availability";
import { runBookingsBench } from "./bookings";
import { runDistanceBench } from "./distance";

// `npm run bench`: every benchmark prints its numbers; none of them asserts timings.
// `npm run bench -- --distance`: only the distance mode (a fixed delay on every D1 and calendar call).
if (process.argv.includes("--distance")) {
  await runDistanceBench();
} else {
  await runAvailabilityBench();
  console.log("");
  await runBookingsBench();
}
process.exit(0);
