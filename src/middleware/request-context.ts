import { createMiddleware } from "hono/factory";
import { setMetric } from "hono/timing";
import { createDb } from "../db/client";
import { type D1Metrics, instrumentD1 } from "../db/instrumented-d1";
import type { OpenEnv } from "../env";

const REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;

/**
 * Gives every request an id (echoing a sane incoming X-Request-Id) and a drizzle
 * handle over an instrumented D1, then reports D1 time and round trips in
 * Server-Timing once the response is ready.
 */
export const requestContext = createMiddleware<OpenEnv>(async (c, next) => {
  const incoming = c.req.header("x-request-id");
  const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
  c.set("requestId", requestId);

  const metrics: D1Metrics = { roundTrips: 0, durationMs: 0 };
  c.set("db", createDb(instrumentD1(c.env.DB, metrics)));

  await next();

  c.res.headers.set("x-request-id", requestId);
  setMetric(c, "d1", metrics.durationMs, `${metrics.roundTrips} round trips`);
});
