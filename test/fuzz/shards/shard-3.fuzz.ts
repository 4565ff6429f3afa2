import { fuzzSuite } from "../lib/suite";

// One of the shards of `npm run fuzz` (each file runs in its own workerd).
fuzzSuite(3, { passes: 20, timeoutMs: 900_000 });
