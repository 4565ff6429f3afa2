import { defineConfig } from "vitest/config";
import FuzzReporter from "./test/fuzz/reporter";
import { workersPool } from "./vitest.pool";

/**
 * `npm run fuzz`: the shards in test/fuzz/shards/, each its own workerd (own
 * D1, own isolate), two at a time on this machine's two cores. Bindings and
 * limits as in vitest.config.ts, except that the rate limits are out of the
 * way (the fuzz also spreads its calls over several API keys).
 *
 * FUZZ_RUNS: passes per shard; FUZZ_SEED: replay; FUZZ_SECONDS: time box per shard;
 * FUZZ_MIN_REQUESTS: the run fails if the shards together sent fewer requests.
 */
export default defineConfig(async () => ({
  plugins: [
    await workersPool(
      {
        API_RATE_LIMIT: 1_000_000,
        ADDRESS_RATE_LIMIT: 1_000_000,
        ADMIN_RATE_LIMIT: 1_000_000,
        RWG_ADDRESS_RATE_LIMIT: 1_000_000,
        PUBLISHABLE_KEY_RATE_LIMIT: 1_000_000,
        PUBLISHABLE_CLIENT_RATE_LIMIT: 1_000_000,
        MANAGE_RATE_LIMIT: 1_000_000,
        MANAGE_WRITE_RATE_LIMIT: 1_000_000,
        LINK_RATE_LIMIT: 1_000_000,
        LINK_WORKSPACE_RATE_LIMIT: 1_000_000,
      },
      {
        FUZZ_RUNS: process.env.FUZZ_RUNS ?? "20",
        ...(process.env.FUZZ_SEED ? { FUZZ_SEED: process.env.FUZZ_SEED } : {}),
        ...(process.env.FUZZ_SECONDS ? { FUZZ_SECONDS: process.env.FUZZ_SECONDS } : {}),
      },
    ),
  ],
  test: {
    include: ["test/fuzz/shards/*.fuzz.ts"],
    setupFiles: ["./test/setup/pool-proxy-once.ts", "./test/setup/apply-migrations.ts"],
    maxWorkers: 2,
    testTimeout: 900_000,
    reporters: ["default", new FuzzReporter(Number(process.env.FUZZ_MIN_REQUESTS ?? 10_000))],
  },
}));
