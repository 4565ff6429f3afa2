import type { D1Migration } from "cloudflare:test";

declare global {
  namespace Cloudflare {
    interface Env {
      TEST_MIGRATIONS: D1Migration[];
      ADMIN_TOKEN?: string;
      MANAGE_TOKEN_SECRET?: string;
      FUZZ_RUNS?: string;
    }
  }
}
