import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { setMetric } from "hono/timing";
import { createDb } from "../../db/client";
import {
  readSessionStart,
  type SessionStart,
  type ShardHandle,
  tenantHandle,
} from "../../db/shards";
import { D1Counter, instrumentD1 } from "../../db/instrumented-d1";
import type { OpenEnv } from "../../http/env";
import { sameSettings } from "../../platform/config";
import { HopCounter } from "../../platform/hops";
import { trackNamespace } from "../../platform/tracked-namespace";
import { budgeted, CalendarBudget } from "../../calendar/budget";
import { WriteGate } from "../../platform/write-gate";

const REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;

/**
 * Gives every request an id (echoing a sane incoming X-Request-Id), a drizzle
 * handle over an instrumented D1 and a per-request view of the calendar
 * namespace, both counting their sequential hops and holding writes behind
 * the request's write gate; reports both in Server-Timing once the response
 * is ready.
 */
export const requestContext = createMiddleware<OpenEnv>(async (c, next) => {
  const incoming = c.req.header("x-request-id");
  const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
  c.set("requestId", requestId);

  const gate = new WriteGate();
  const afterResponse: (() => Promise<unknown>)[] = [];
  c.set("afterResponse", (task) => afterResponse.push(task));
  const d1 = new D1Counter();
  const calendar = new HopCounter();
  const budget = new CalendarBudget();
  const provider = new HopCounter();
  c.set("gate", gate);
  c.set("d1", d1);
  c.set("directory", createDb(instrumentD1(c.env.DB, d1, gate)));
  let shard: ShardHandle | undefined;
  c.set("routeTo", (workspaceId, name) => {
    shard = tenantHandle(c.env, name, workspaceId, {
      counter: d1,
      gate,
      session: sessionStart(c, name),
    });
    c.set("db", shard.db);
    return shard.db;
  });
  // Use-cases reach the calendars through `c.env`; this request's copy counts and gates them.
  // (The OpenAPI generator runs the app with no bindings at all.)
  if (c.env?.CALENDARS) {
    c.env = sameSettings(c.env, {
      ...c.env,
      CALENDARS: budgeted(trackNamespace(c.env.CALENDARS, calendar, gate), budget),
      PROVIDER_FETCH: countedFetch(provider),
    });
  }

  await next();

  c.res.headers.set("x-request-id", requestId);
  const bookmark = shard?.bookmark();
  if (bookmark && !c.var.refused) c.res.headers.set("d1-bookmark", bookmark);
  if (!c.var.refused) {
    setMetric(c, "d1", d1.durationMs, `${d1.hops} round trips`);
    setMetric(c, "d1-statements", `${d1.statements}`);
    // The shard's placement check: one more statement riding each call, no round trip.
    setMetric(c, "d1-placement-checks", `${d1.placementChecks}`);
    // What the request cost D1 (its `meta.rows_read`) and what D1 sent back (no meta says it).
    setMetric(c, "d1-rows-read", `${d1.rowsRead}`);
    setMetric(c, "d1-bytes-returned", `${d1.bytesReturned}`);
    setMetric(c, "calendar", calendar.durationMs, `${calendar.hops} calls`);
    // Every call, the confirms that run after the answer included.
    setMetric(c, "calendar-total", `${calendar.calls + budget.pending} calls`);
    setMetric(c, "calendars", `${budget.calendars}`);
    // The payment provider's API (Stripe): a checkout, a webhook's fetch-back, a refund.
    setMetric(c, "provider", provider.durationMs, `${provider.calls} calls`);
  }
  // Off the answer's path (calendar confirms): started now, not waited for.
  for (const task of afterResponse) outlive(c, task());
});

/**
 * Reads only (GET, HEAD) may be answered by a read replica: from the bookmark the
 * client sent back (`D1-Bookmark`: at least that fresh, so a client reads its own
 * writes), else from any. Anything else starts on the primary.
 */
function sessionStart(c: Context<OpenEnv>, shard: string): SessionStart {
  if (c.req.method !== "GET" && c.req.method !== "HEAD") return "first-primary";
  return readSessionStart(shard, c.req.header("d1-bookmark"));
}

/** Global fetch, each call counted (and timed) by `counter`. */
const countedFetch =
  (counter: HopCounter): typeof fetch =>
  async (input, init) => {
    const done = counter.start();
    try {
      return await fetch(input, init);
    } finally {
      done();
    }
  };

/** Keeps the Worker alive for `work` after the answer; without an execution context it just runs. */
function outlive(c: Context, work: Promise<unknown>) {
  work.catch(() => undefined);
  try {
    c.executionCtx.waitUntil(work);
  } catch {
    // `app.request` in tests has no execution context: the work runs on regardless.
  }
}
