import { defineConfig } from "vitest/config";
import { workersPool } from "./vitest.pool";
import { stripeLocalPort } from "./test/setup/stripe-port";
import { googleTestKeys, TEST_RWG_PARTNER_ID } from "./test/setup/google-keys";

// stripe-local (test/setup/stripe-server.ts) listens where the Worker's STRIPE_API_BASE points:
// the port is chosen before the bindings are fixed, and handed to the global setup this way.
process.env.STRIPE_LOCAL_PORT ??= String(await stripeLocalPort());
// google-local (test/setup/google-server.ts), where Reserve with Google's updates go, likewise,
// with a service account key pair made for the run.
process.env.GOOGLE_LOCAL_PORT ??= String(await stripeLocalPort());
const googleLocal = `http://127.0.0.1:${process.env.GOOGLE_LOCAL_PORT}`;

// Integration tests run inside workerd with the real bindings of wrangler.toml:
// D1 with migrations applied (test/setup/apply-migrations.ts), Durable Objects, Queues.
export default defineConfig(async () => ({
  plugins: [
    // Every test file's calls share the client address "local", hence the headroom of the
    // per-address limiters (test/integration/rate-limit.test.ts drives them with fakes).
    await workersPool(
      {
        API_RATE_LIMIT: 300,
        ADDRESS_RATE_LIMIT: 1_000_000,
        ADMIN_RATE_LIMIT: 100_000,
        RWG_ADDRESS_RATE_LIMIT: 1_000_000,
        PUBLISHABLE_KEY_RATE_LIMIT: 300,
        PUBLISHABLE_CLIENT_RATE_LIMIT: 120,
        MANAGE_RATE_LIMIT: 120,
        MANAGE_WRITE_RATE_LIMIT: 10,
        // Per link (test/integration/link-limits.test.ts reaches it from rotating addresses).
        LINK_RATE_LIMIT: 60,
        LINK_WORKSPACE_RATE_LIMIT: 100_000,
      },
      // External calendars: a fetch that hangs is given up after 1.5 s instead of 10 s.
      {
        FUZZ_RUNS: process.env.FUZZ_RUNS ?? "1",
        ...(process.env.FUZZ_SEED ? { FUZZ_SEED: process.env.FUZZ_SEED } : {}),
        EXTERNAL_CALENDAR_TIMEOUT_MS: "1500",
        // A move's clean-up starts right after its switch (production waits 30 s).
        MOVE_CLEAN_GRACE_MS: "0",
        STRIPE_API_BASE: `http://127.0.0.1:${process.env.STRIPE_LOCAL_PORT}`,
        STRIPE_SECRET_KEY: "sk_test_local",
        STRIPE_WEBHOOK_SECRET: "whsec_test_local",
        RWG_NOTIFY_URL: googleLocal,
        RWG_PARTNER_ID: TEST_RWG_PARTNER_ID,
        RWG_RETRY_BASE_SECONDS: "0",
        RWG_SERVICE_ACCOUNT_JSON: JSON.stringify({
          type: "service_account",
          client_email: "rtu@salon-test.iam.gserviceaccount.com",
          private_key: googleTestKeys().privateKeyPem,
          token_uri: `${googleLocal}/token`,
        }),
      },
    ),
  ],
  test: {
    include: [
      "test/integration/**/*.test.ts",
      "test/durable-objects/**/*.test.ts",
      "test/queues/**/*.test.ts",
      "test/fuzz/**/*.test.ts",
    ],
    setupFiles: ["./test/setup/pool-proxy-once.ts", "./test/setup/apply-migrations.ts"],
    // Each file has a workerd of its own (storage is isolated per file); two files at a time
    // keep both cores busy (Vitest's default on two cores is one: a file's workerd and Vite's
    // Node process mostly wait on each other, so one file leaves a core idle).
    maxWorkers: 2,
    // With two workerds sharing two cores, a file's first call (the app's first load in its
    // workerd) can take longer than Vitest's 5 s default; a test that hangs still fails.
    testTimeout: 20_000,
    // A local HTTP server for the external-calendar tests (real TCP, outside workerd).
    globalSetup: [
      "./test/setup/ics-server.ts",
      "./test/setup/stripe-server.ts",
      "./test/setup/google-server.ts",
    ],
  },
}));
