import type { D1Migration } from "cloudflare:test";

declare global {
  namespace Cloudflare {
    interface Env {
      TEST_MIGRATIONS: D1Migration[];
      /** Copies the run's migrated D1 databases into this file's storage (vitest.pool.ts). */
      TEST_D1_TEMPLATE: Fetcher;
      ADMIN_TOKEN?: string;
      MANAGE_TOKEN_SECRET?: string;
      FUZZ_RUNS?: string;
    }
  }
}
