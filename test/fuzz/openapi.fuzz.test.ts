import { fuzzSuite } from "./lib/suite";

// The small run in `npm test`: FUZZ_RUNS passes (vitest.config.ts binds 1) over
// every operation of both documents, about 300 requests in a few seconds.
// `npm run fuzz` runs the shards in test/fuzz/shards/ instead (vitest.fuzz.config.ts).
fuzzSuite(0, { passes: 1, timeoutMs: 120_000 });
