import type { Env } from "../../src/platform/env";
import { createDb } from "../../src/db/client";
import { noShowReport } from "../../src/reports/no-shows";
import { revenueReport } from "../../src/reports/revenue";
import { utilizationReport } from "../../src/reports/utilization";
import { BENCH_REPORT_PATH, BENCH_SQL_PATH } from "../reports/path";

/**
 * Bench only (`npm run bench -- --reports`), served by the bench Worker
 * (./worker.ts) before the app sees the request: runs SQL the bench
 * sends as one D1 batch on a named binding, the management token required, and
 * answers the rows with what D1 says it did (each result's `meta.duration` and
 * `meta.rows_read`, summed) and the batch's wall time inside the Worker. The
 * seeding writes a year of rows through it in a few batches (wrangler's
 * `d1 execute` costs a process per call), and the raw-row reports are measured
 * the way D1 reports them, like the rollup reports they are compared with. And runs a report
 * use-case of src/reports (what GET /reports/… calls) on the same binding, with the same
 * numbers of its batch.
 */
interface Step {
  sql: string;
  params?: unknown[];
}

interface SqlRequest {
  binding: string;
  statements: Step[];
}

/** The D1 numbers of one batch: the Worker's wall time, D1's own time and rows read. */
export function measured(results: D1Result[], wallMs: number) {
  let durationMs = 0;
  let rowsRead = 0;
  let rowsWritten = 0;
  for (const r of results) {
    durationMs += r.meta?.duration ?? 0;
    rowsRead += r.meta?.rows_read ?? 0;
    rowsWritten += r.meta?.rows_written ?? 0;
  }
  return { wallMs, durationMs, rowsRead, rowsWritten };
}

interface ReportRequest {
  binding: string;
  workspaceId: string;
  report: "revenue" | "utilization" | "no-shows";
  query: { locationId: string; from: string; to: string; groupBy: string };
}

/** The D1 binding with its batches' results kept, to read D1's numbers of a use-case's batch. */
function recording(d1: D1Database, results: D1Result[], batches: { n: number }): D1Database {
  return new Proxy(d1, {
    get(target, prop) {
      if (prop === "batch")
        return async (statements: D1PreparedStatement[]) => {
          batches.n += 1;
          const out = await target.batch(statements);
          results.push(...out);
          return out;
        };
      const value = Reflect.get(target, prop) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** A report use-case of src/reports as the route calls it, with D1's numbers of its batches. */
async function report(d1: D1Database, body: ReportRequest): Promise<Response> {
  const results: D1Result[] = [];
  const batches = { n: 0 };
  const scope = { db: createDb(recording(d1, results, batches)), workspaceId: body.workspaceId };
  const q = body.query;
  const started = performance.now();
  const answer =
    body.report === "revenue"
      ? await revenueReport(scope, { ...q, groupBy: q.groupBy as never })
      : body.report === "utilization"
        ? await utilizationReport(scope, { ...q, groupBy: q.groupBy as never })
        : await noShowReport(scope, { ...q, groupBy: q.groupBy as never });
  const wallMs = performance.now() - started;
  return Response.json({
    ...measured(results, wallMs),
    batches: batches.n,
    results: [answer.data],
  });
}

export async function benchReportsHook(request: Request, env: Env): Promise<Response | null> {
  const url = new URL(request.url);
  if (url.pathname !== BENCH_SQL_PATH && url.pathname !== BENCH_REPORT_PATH) return null;
  const token = (env as unknown as { ADMIN_TOKEN?: string }).ADMIN_TOKEN;
  if (!token || request.headers.get("authorization") !== `Bearer ${token}`)
    return Response.json({ message: "forbidden" }, { status: 403 });
  const body = (await request.json()) as SqlRequest & ReportRequest;
  const d1 = (env as unknown as Record<string, D1Database | undefined>)[body.binding];
  if (!d1) return Response.json({ message: `no binding ${body.binding}` }, { status: 400 });
  try {
    if (url.pathname === BENCH_REPORT_PATH) return await report(d1, body);
    const started = performance.now();
    const results = await d1.batch(
      body.statements.map((s) => d1.prepare(s.sql).bind(...(s.params ?? []))),
    );
    const wallMs = performance.now() - started;
    return Response.json({
      ...measured(results, wallMs),
      results: results.map((r) => r.results),
    });
  } catch (error) {
    return Response.json({ message: String(error) }, { status: 500 });
  }
}
