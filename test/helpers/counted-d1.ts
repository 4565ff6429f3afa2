import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import worker from "../../src/index";
import { BASE, PUBLIC } from "./http";
import { isPlacementCheck } from "../../src/db/instrumented-d1";

const RAW = Symbol("raw");
const QUERY = Symbol("query");

/**
 * A D1 binding (or one of its sessions) that counts every statement sent
 * through it (a batch counts each of its).
 */
function countedD1(
  db: D1Database | D1DatabaseSession,
  counted: { statements: number },
): D1Database {
  // The shards' placement checks ride along each call; what is counted is the app's statements.
  const wrap = (s: D1PreparedStatement, query: string): D1PreparedStatement => {
    const own = isPlacementCheck(query) ? 0 : 1;
    const run =
      <K extends "first" | "run" | "all" | "raw">(k: K) =>
      (...args: unknown[]) => {
        counted.statements += own;
        return (s[k] as (...a: unknown[]) => unknown)(...args);
      };
    return {
      [RAW]: s,
      [QUERY]: query,
      bind: (...values: unknown[]) => wrap(s.bind(...values), query),
      first: run("first"),
      run: run("run"),
      all: run("all"),
      raw: run("raw"),
    } as unknown as D1PreparedStatement;
  };
  return {
    prepare: (query: string) => wrap(db.prepare(query), query),
    batch: (statements: D1PreparedStatement[]) => {
      const queries = statements.map((s) => (s as unknown as { [QUERY]?: string })[QUERY] ?? "");
      counted.statements += queries.filter((q) => !isPlacementCheck(q)).length;
      return db.batch(
        statements.map((s) => (s as unknown as { [RAW]?: D1PreparedStatement })[RAW] ?? s),
      );
    },
    exec: (query: string) => {
      counted.statements += 1;
      return (db as D1Database).exec(query);
    },
    withSession: (c?: string) => ({
      ...countedD1((db as D1Database).withSession(c), counted),
      getBookmark: () => null,
    }),
  } as unknown as D1Database;
}

export interface CountedWrite {
  status: number;
  body: unknown;
  /** D1 statements the request ran before its answer (its Server-Timing `d1-statements`). */
  answered: number;
  /** D1 statements run in all, the work after the answer (waitUntil) included. */
  total: number;
}

/**
 * One public API call through the Worker's own fetch with a D1 binding that
 * counts, waiting for everything it left running after its answer
 * (`waitUntil`): what the after-write work costs D1 is `total - answered`.
 */
export async function countedCall(
  path: string,
  sent: { method: string; body?: unknown; workspaceId: string; apiKey: string },
): Promise<CountedWrite> {
  const counted = { statements: 0 };
  // The directory and every shard: a request reads one and writes the other.
  const databases = Object.keys(env).filter((name) => /^(DB|SHARD_\d+)$/.test(name));
  const bindings = {
    ...env,
    ...Object.fromEntries(
      databases.map((name) => [
        name,
        countedD1((env as unknown as Record<string, D1Database>)[name] as D1Database, counted),
      ]),
    ),
  };
  const ctx = createExecutionContext();
  const fetch = worker.fetch;
  if (!fetch) throw new Error("the Worker has no fetch handler");
  const res = await fetch(
    new Request(`${BASE}${PUBLIC}${path}`, {
      method: sent.method,
      headers: {
        authorization: `Bearer ${sent.apiKey}`,
        workspace: sent.workspaceId,
        "content-type": "application/json",
      },
      body: sent.body === undefined ? undefined : JSON.stringify(sent.body),
    }) as Request<unknown, IncomingRequestCfProperties>,
    bindings,
    ctx,
  );
  const text = await res.text();
  await waitOnExecutionContext(ctx);
  const timing = /d1-statements;desc="(\d+)"/.exec(res.headers.get("server-timing") ?? "");
  return {
    status: res.status,
    body: text ? JSON.parse(text) : null,
    answered: Number(timing?.[1] ?? NaN),
    total: counted.statements,
  };
}
