import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";

// Integration tests run inside workerd with the real bindings of wrangler.toml:
// D1 with migrations applied (test/setup/apply-migrations.ts), Durable Objects, Queues.
export default defineConfig(async () => {
  const migrations = await readD1Migrations(path.join(import.meta.dirname, "migrations"));
  return {
    plugins: [
      cloudflareTest({
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          // Minute windows make the limit testable without racing a 10 s boundary; every
          // test file's calls share the client address "local", hence the headroom of the
          // per-address limiters (test/integration/rate-limit.test.ts drives them with fakes).
          ratelimits: {
            API_RATE_LIMIT: { simple: { limit: 300, period: 60 } },
            ADDRESS_RATE_LIMIT: { simple: { limit: 1_000_000, period: 60 } },
            ADMIN_RATE_LIMIT: { simple: { limit: 100_000, period: 60 } },
          },
          bindings: {
            TEST_MIGRATIONS: migrations,
            ADMIN_TOKEN: "test-admin-token",
            ALLOW_PRIVATE_WEBHOOKS: "true",
            WEBHOOK_RETRY_BASE_SECONDS: "0",
            FUZZ_RUNS: process.env.FUZZ_RUNS ?? "1",
          },
        },
      }),
    ],
    test: {
      include: [
        "test/integration/**/*.test.ts",
        "test/durable-objects/**/*.test.ts",
        "test/queues/**/*.test.ts",
        "test/fuzz/**/*.test.ts",
      ],
      setupFiles: ["./test/setup/apply-migrations.ts"],
    },
  };
});
