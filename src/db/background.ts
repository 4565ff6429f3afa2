import { createDb } from "./client";
import { instrumentD1 } from "./instrumented-d1";
import type { Env } from "../platform/env";

/**
 * D1 for work outside a request (queue consumer, outbox dispatch, cron sweep),
 * through the same wrapper as requests, which refuses a statement over D1's
 * parameter limit in tests as well as in production.
 */
export const backgroundDb = (env: Env) => createDb(instrumentD1(env.DB));
