import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import worker from "../../../src/index";
import { everyShard } from "../../helpers/every-shard";
import { D1_NAMES, d1 } from "../../helpers/shard-holdings";

/**
 * Sends requests to the Worker by calling its fetch handler in the test's own
 * isolate, not through `exports.default.fetch` (SELF).
 *
 * Why: in @cloudflare/vitest-pool-workers 0.15.1 every call through SELF
 * constructs the pool's entrypoint wrapper, and its constructor
 * (`createProxyPrototypeClass` in cloudflare:test-internal) replaces
 * `Wrapper.prototype` with a new Proxy around the previous one. After n calls
 * a method lookup walks n nested get traps, each re-validating against the
 * chain below it, so a lookup costs O(n²) (0.3 ms at 100 wrappers, 26 ms at
 * 1000, 63 ms at 1600) and near 1800 nested proxies the lookup overflows the
 * stack: `RangeError: Maximum call stack size exceeded`, whatever the input.
 * Calling the handler directly builds no wrapper, so the ten-thousandth
 * request costs what the first did. Every request gets its own execution
 * context, and its waitUntil work (outbox dispatch) is awaited before the
 * next request, so row counts never race a request's own background writes.
 */

export const ORIGIN = "http://fuzz.test";

export interface Exchange {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON body; undefined when the body is empty or not JSON. */
  json: unknown;
  jsonError: string | null;
}

export async function exchange(request: Request): Promise<Exchange> {
  const ctx = createExecutionContext();
  const response = await worker.fetch(request, env, ctx);
  const text = await response.text();
  await waitOnExecutionContext(ctx);
  let json: unknown;
  let jsonError: string | null = null;
  if (text) {
    try {
      json = JSON.parse(text);
    } catch (e) {
      jsonError = String(e);
    }
  }
  return { status: response.status, headers: response.headers, text, json, jsonError };
}

/** Tables written outside the request being judged (by design), so not counted. */
const NOT_COUNTED = new Set([
  // Delivery log, written by the queue consumer in the background.
  "webhook_deliveries",
  // Attempts the queue consumer claims before each delivery, also in the background.
  "webhook_attempts",
  // Kept for every keyed request, including rejected ones, so that a retry gets the same answer.
  "idempotency_keys",
  // Tombstones the calendar objects write when they settle an expired hold (alarms).
  "hold_fences",
  "d1_migrations",
]);

const countAll = new Map<string, D1PreparedStatement>();

/** One query counting every counted table of a database. */
async function countingStatement(db: D1Database): Promise<D1PreparedStatement> {
  const tables = await db.prepare("select name from sqlite_master where type = 'table'").all<{
    name: string;
  }>();
  const names = tables.results
    .map((t) => t.name)
    .filter((n) => !NOT_COUNTED.has(n) && !n.startsWith("sqlite_") && !n.startsWith("_cf"));
  return db.prepare(
    `select ${names.map((n) => `(select count(*) from "${n}") as "${n}"`).join(", ")}`,
  );
}

/**
 * Rows of every counted table of every database (the directory and each shard, read
 * apart, one query each), keyed `DATABASE.table`: a row left behind is named with
 * the database it was left in.
 */
export async function rowCounts(): Promise<Record<string, number>> {
  const counted = await Promise.all(
    D1_NAMES.map(async (name) => {
      let statement = countAll.get(name);
      if (!statement) {
        statement = await countingStatement(d1(name));
        countAll.set(name, statement);
      }
      const row = (await statement.first<Record<string, number>>()) ?? {};
      return Object.entries(row).map(([table, n]) => [`${name}.${table}`, n] as const);
    }),
  );
  return Object.fromEntries(counted.flat());
}

export function diffCounts(before: Record<string, number>, after: Record<string, number>) {
  const out: Record<string, string> = {};
  for (const k of new Set([...Object.keys(before), ...Object.keys(after)]))
    if (before[k] !== after[k]) out[k] = `${before[k] ?? 0} → ${after[k] ?? 0}`;
  return out;
}

/** Webhook targets in D1 that are not loopback: must stay empty, or the fuzz sent traffic off this machine. */
export async function nonLoopbackWebhooks(): Promise<string[]> {
  const { results } = await everyShard.prepare("select url from webhooks").all<{ url: string }>();
  return results.map((r) => r.url).filter((u) => !isLoopbackUrl(u));
}

export function isLoopbackUrl(raw: string): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return true; // not a URL: nothing could be fetched
  }
  // Only http(s) targets are ever fetched (the server refuses other schemes).
  if (url.protocol !== "http:" && url.protocol !== "https:") return true;
  const host = url.hostname.toLowerCase();
  return host === "localhost" || host === "[::1]" || /^127(\.\d{1,3}){3}$/.test(host);
}
