import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";

type Limits = Record<
  | "API_RATE_LIMIT"
  | "ADDRESS_RATE_LIMIT"
  | "ADMIN_RATE_LIMIT"
  | "PUBLISHABLE_KEY_RATE_LIMIT"
  | "PUBLISHABLE_CLIENT_RATE_LIMIT"
  | "MANAGE_RATE_LIMIT"
  | "MANAGE_WRITE_RATE_LIMIT"
  | "LINK_RATE_LIMIT"
  | "LINK_WORKSPACE_RATE_LIMIT",
  number
>;

/**
 * The Workers pool as every workerd test run uses it: the real bindings of
 * wrangler.toml, D1 migrations for test/setup/apply-migrations.ts, the test
 * settings, and per-minute rate limits (minute windows make limits testable
 * without racing a 10 s boundary).
 */
export async function workersPool(limits: Limits, bindings: Record<string, string>) {
  const migrations = await readD1Migrations(path.join(import.meta.dirname, "migrations"));
  return cloudflareTest({
    wrangler: { configPath: "./wrangler.toml" },
    miniflare: {
      ratelimits: Object.fromEntries(
        Object.entries(limits).map(([name, limit]) => [name, { simple: { limit, period: 60 } }]),
      ),
      bindings: {
        TEST_MIGRATIONS: migrations,
        ADMIN_TOKEN: "test-admin-token",
        MANAGE_TOKEN_SECRET: "test-manage-token-secret",
        CUSTOMER_ID_SECRET: "test-customer-id-secret",
        ALLOW_PRIVATE_WEBHOOKS: "true",
        WEBHOOK_RETRY_BASE_SECONDS: "0",
        // The origin test requests are sent to (test/helpers/http.ts BASE): links are built on it.
        PUBLIC_ORIGIN: "http://api.test",
        ...bindings,
      },
    },
  });
}
