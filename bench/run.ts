import { runAvailabilityBench } from "./availability";
import { runBookingsBench } from "./bookings";

// `npm run bench`: every benchmark prints its numbers; none of them asserts timings.
await runAvailabilityBench();
console.log("");
await runBookingsBench();
process.exit(0);
