import { runAvailabilityBench } from "./availability";

// `npm run bench`: every benchmark prints its numbers; none of them asserts timings.
await runAvailabilityBench();
