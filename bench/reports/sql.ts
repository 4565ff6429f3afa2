import { BENCH_ADMIN_TOKEN } from "../open-salon";
import { BENCH_REPORT_PATH, BENCH_SQL_PATH } from "./path";

/** One batch's answer from the bench hook (bench/distance/reports-hook.ts), with the client's wall time. */
export interface BatchResult {
  /** The batch inside the Worker, and the whole request as the client saw it. */
  wallMs: number;
  clientMs: number;
  /** D1's own numbers, summed over the batch's results (`meta.duration`, `meta.rows_read`). */
  durationMs: number;
  rowsRead: number;
  rowsWritten: number;
  results: Record<string, unknown>[][];
}

export interface Statement {
  sql: string;
  params?: unknown[];
}

/**
 * Runs statements as one D1 batch on `binding` of the bench server at `base`. `wrangler dev`
 * restarts the Worker when a file it bundles changes (others editing src/ during a run), and
 * the request then fails unanswered: tried again, a few times, its INSERTs as INSERT OR
 * IGNORE (the rows of a batch that committed before the answer was lost are not written twice).
 */
export function sqlBatch(
  base: string,
  binding: string,
  statements: Statement[],
): Promise<BatchResult> {
  return post(base, BENCH_SQL_PATH, (attempt) => ({
    binding,
    statements:
      attempt === 1
        ? statements
        : statements.map((s) => ({
            ...s,
            sql: s.sql.replace(/\bINSERT INTO\b/g, "INSERT OR IGNORE INTO"),
          })),
  }));
}

/** A report use-case of src/reports run in the Worker, with D1's numbers of its batches. */
export function reportBatch(
  base: string,
  binding: string,
  workspaceId: string,
  report: string,
  query: { locationId: string; from: string; to: string; groupBy: string },
): Promise<BatchResult & { batches: number }> {
  return post(base, BENCH_REPORT_PATH, () => ({ binding, workspaceId, report, query }));
}

async function post<T>(base: string, path: string, body: (attempt: number) => unknown): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const started = performance.now();
    const res = await fetch(`${base}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${BENCH_ADMIN_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify(body(attempt)),
    }).catch(() => null);
    const text = res ? await res.text() : "no answer";
    const clientMs = performance.now() - started;
    if (res?.ok) return { ...(JSON.parse(text) as object), clientMs } as T;
    const lost = !res || (res.status === 503 && /restarted/i.test(text));
    if (!lost || attempt >= 5)
      throw new Error(
        `bench ${path} → ${res?.status}: ${text.slice(0, 800)}\n${JSON.stringify(body(1)).slice(0, 4000)}`,
      );
    await new Promise((r) => setTimeout(r, 1000 * attempt));
  }
}

/**
 * A location's day of an instant in SQL (days since 1970-01-01 on its wall clock), from its
 * `location_offsets`, as src/reports/queries/local-day.ts and the triggers spell it; the
 * location is parameter ?1.
 */
export const localDay = (at: string) =>
  `((${at}) + coalesce((SELECT o.offset_ms FROM location_offsets o WHERE o.location_id = ?1 AND o.from_ms <= (${at}) ORDER BY o.from_ms DESC LIMIT 1), 0)) / 86400000`;

/** A uuid-shaped id, the same on every run: a table's tag and a row number. */
export const seededId = (tag: number, n: string) =>
  `printf('%08x-0000-4000-8000-%012x', ${tag}, ${n})`;

/** Day number → 'YYYY-MM-DD' in SQL. */
export const dateOf = (day: string) => `date((${day}) * 86400, 'unixepoch')`;
