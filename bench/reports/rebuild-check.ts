import { BENCH_ADMIN_TOKEN } from "../open-salon";
import { REVENUE_SUMS } from "../../src/reports/rules/revenue-sums";
import { sqlBatch } from "./sql";

/** Each rollup table's rows of a location: its key columns, then the sums (`changes` left out). */
const TABLES: [string, string[], string[]][] = [
  ["report_revenue_days", ["dim", "day", "key"], [...REVENUE_SUMS]],
  ["report_calendar_days", ["day", "staffer_id"], ["booked_ms", "blocked_ms"]],
  [
    "report_booking_days",
    ["dim", "day", "key"],
    ["bookings", "didnt_come", "late_cancels", "fees"],
  ],
];

async function snapshot(base: string, shard: string, location: string) {
  const { results } = await sqlBatch(
    base,
    shard,
    TABLES.map(([table, keys, sums]) => ({
      sql: `SELECT ${keys.join(" || '|' || ")} AS k, ${sums.join(" || ',' || ")} AS v
        FROM ${table} WHERE location_id = ? AND (${sums.join(" <> 0 OR ")} <> 0)`,
      params: [location],
    })),
  );
  return results.map((rows) => new Map(rows.map((r) => [String(r.k), String(r.v)])));
}

/**
 * `--rebuild`: the location's rollups rebuilt from the raw rows by the admin route
 * (POST /workspaces/{ws}/reports/rebuild), timed, and compared row by row with the ones
 * the triggers and the seeded order statement kept (all-zero rows count as absent).
 * Answers the printed line and how many rows differ.
 */
export async function rebuildCheck(
  base: string,
  { workspaceId, shard, location }: { workspaceId: string; shard: string; location: string },
): Promise<{ line: string; differing: number }> {
  const before = await snapshot(base, shard, location);
  const started = performance.now();
  const res = await fetch(
    `${base}/api/admin/v1/workspaces/${workspaceId}/reports/rebuild?location_uuid=${location}`,
    { method: "POST", headers: { authorization: `Bearer ${BENCH_ADMIN_TOKEN}` } },
  );
  const text = await res.text();
  const ms = performance.now() - started;
  if (!res.ok) return { line: `rebuild → ${res.status}: ${text.slice(0, 300)}`, differing: 1 };
  const after = await snapshot(base, shard, location);
  const differing: string[] = [];
  for (const [i, kept] of before.entries()) {
    const rebuilt = after[i] ?? new Map<string, string>();
    for (const k of new Set([...kept.keys(), ...rebuilt.keys()]))
      if (kept.get(k) !== rebuilt.get(k))
        differing.push(`${TABLES[i]?.[0]} ${k}: kept [${kept.get(k)}] rebuilt [${rebuilt.get(k)}]`);
  }
  const rows = before.reduce((n, m) => n + m.size, 0);
  const line = `rebuild from the raw rows (POST /workspaces/{ws}/reports/rebuild): ${(ms / 1000).toFixed(1)} s, ${text}; rebuilt rollups equal the kept ones (${rows} rows): ${differing.length === 0 ? "yes" : `NO (${differing.length} rows differ)`}`;
  return {
    line: [line, ...differing.slice(0, 5).map((d) => `    ${d}`)].join("\n"),
    differing: differing.length,
  };
}
