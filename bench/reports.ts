import { rmSync } from "node:fs";
import { startDistanceServer } from "./distance";
import { type Report, rawReport } from "./reports/raw";
import { bookingRows, customerRows } from "./reports/seed";
import { gridSize } from "./reports/seed-grid";
import { blockedRows, posRows, revenueRollupOfOrders } from "./reports/seed-extra";
import { differences, measure } from "./reports/measure";
import { rebuildCheck } from "./reports/rebuild-check";
import { createSalon } from "./reports/setup";
import { reportBatch, type Statement, sqlBatch } from "./reports/sql";
import type { DevServer } from "./server";
import { withDevServer } from "./server";

/**
 * `npm run bench -- --reports [--size <staffers>] [--days <n>]`: a year of one location
 * (Europe/Berlin) of 100 staffers, three bookings each per working day (~94,000 bookings:
 * cancels, no-shows with and without a fee, late cancels, completes with paid orders, a
 * tenth discounted; POS sales of goods, some refunded; blocked spots), written into local
 * D1 under `wrangler dev` by a few bulk INSERT … SELECTs (bench/reports/seed*.ts) so the
 * triggers of 0038 keep the rollups as in production. Then every report and grouping over
 * the whole year: the report use-case of src/reports (revenueReport, utilizationReport,
 * noShowReport: what GET /reports/… calls, one D1 batch over the daily rollups), and the
 * same report from the raw rows (one GROUP BY over bookings, orders and calendar entries,
 * bench/reports/raw.ts), each with its wall time in the Worker,
 * D1's time (`meta.duration`) and rows read (`meta.rows_read`), the medians of 3 runs. Both must give the same groups and numbers to the minor unit: a
 * difference is printed and the run fails. `--rebuild` then rebuilds the location's rollups
 * from the raw rows (POST /workspaces/{ws}/reports/rebuild), timed, and compares them with the
 * kept ones row by row.
 */
const PORT = 8793;
/**
 * Grid rows (bookings) per seeding request: a few seconds each, as `wrangler dev` restarts the
 * Worker (and drops the request) whenever a file under src/ changes.
 */
const CHUNK = 2_500;

const chunks = (n: number, size: number): [number, number][] =>
  Array.from({ length: Math.ceil(n / size) }, (_, k) => [k * size, Math.min(n, (k + 1) * size)]);

const GROUPS: [Report, string[]][] = [
  ["revenue", ["day", "week", "month", "staffer", "service", "payment_method"]],
  ["utilization", ["staffer", "day"]],
  ["no-shows", ["service", "staffer", "customer"]],
];

const dateOf = (day: number) => new Date(day * 86_400_000).toISOString().slice(0, 10);

const flag = (name: string, fallback: number) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
};

/** Runs the bench; answers how many checks failed (report groupings unlike the raw rows, the rebuild). */
export async function runReportsBench({
  staffers = flag("--size", 100),
  days = flag("--days", 365),
  rebuild = process.argv.includes("--rebuild"),
  server: given,
}: {
  staffers?: number;
  days?: number;
  /** Also rebuild the rollups from the raw rows (the admin route) and compare them with the kept ones. */
  rebuild?: boolean;
  server?: DevServer;
} = {}): Promise<number> {
  const start = () => {
    rmSync(`.wrangler/bench-${PORT}`, { recursive: true, force: true });
    return startDistanceServer(0, PORT);
  };
  return withDevServer(given, start, async ({ base }) => {
    const setupStarted = performance.now();
    const salon = await createSalon(base, staffers);
    const setupMs = performance.now() - setupStarted;
    const year = new Date().getUTCFullYear() - 1;
    const shape = {
      staffers,
      firstDay: Date.UTC(year, 0, 1) / 86_400_000,
      days,
      perDay: 3,
      customers: Math.max(20, staffers * 20),
    };
    const { template, shard } = salon;
    const params = [salon.location, JSON.stringify(salon.staffers), JSON.stringify(salon.services)];
    const seedStarted = performance.now();
    const one = (sql: string, p: unknown[]): Statement[] => [{ sql, params: p }];
    const steps: [string, Statement[]][] = [
      ["customers", one(customerRows(template, shape.customers), [])],
      // A chunk's tables in one batch (one transaction), so a retried chunk is all or nothing.
      ...chunks(gridSize(shape), CHUNK).map(([from, to]): [string, Statement[]] => [
        "bookings",
        bookingRows(template, shape, from, to).map((s) => ({ ...s, params })),
      ]),
      ["POS", posRows(template, shape).map((sql) => ({ sql, params: params.slice(0, 2) }))],
      ["blocked", one(blockedRows(template, shape), params.slice(0, 2))],
      ["revenue rollup", one(revenueRollupOfOrders(), [salon.location, salon.workspaceId])],
    ];
    const seedTimes = new Map<string, number>();
    let analyzed = false;
    for (const [name, statements] of steps) {
      const r = await sqlBatch(base, shard, statements);
      seedTimes.set(name, (seedTimes.get(name) ?? 0) + r.clientMs);
      // Without statistics SQLite answers the booking_services triggers' NOT EXISTS (same
      // booking and service, or staffer) from the service's (or staffer's) index, reading every
      // booking of that service: each insert costs more than the last and a year never ends
      // seeding. With them it takes the booking's index. (The app's own databases have none.)
      if (!analyzed && name === "bookings") {
        await sqlBatch(base, shard, [{ sql: "ANALYZE" }]);
        analyzed = true;
      }
    }
    const seedMs = performance.now() - seedStarted;
    const counted = await sqlBatch(
      base,
      shard,
      [
        "bookings",
        "booking_services",
        "calendar_entries",
        "orders",
        "order_lines",
        "payments",
        "report_revenue_days",
        "report_calendar_days",
        "report_booking_days",
      ].map((t) => ({
        sql: `SELECT '${t}' AS t, count(*) AS n FROM ${t} WHERE workspace_id = ?`,
        params: [salon.workspaceId],
      })),
    );
    const counts = counted.results.map((r) => `${r[0]?.t} ${r[0]?.n}`);
    console.log(
      `Reports: ${staffers} staffers, ${days} days from ${year}-01-01 (${salon.location}, Europe/Berlin)`,
    );
    console.log(`  set-up through the API ${(setupMs / 1000).toFixed(1)} s`);
    console.log(
      `  seeded in ${(seedMs / 1000).toFixed(1)} s: ${[...seedTimes].map(([k, ms]) => `${k} ${(ms / 1000).toFixed(1)} s`).join(", ")}`,
    );
    console.log(`  rows: ${counts.join(", ")}`);

    const range = [salon.location, shape.firstDay, shape.firstDay + days - 1];
    const header = `  ${"report".padEnd(30)} ${"groups".padStart(6)}   ${"rollup: wall ms".padStart(15)} ${"D1 ms".padStart(7)} ${"rows read".padStart(9)}   ${"raw: wall ms".padStart(12)} ${"D1 ms".padStart(7)} ${"rows read".padStart(9)}  equal`;
    console.log(header);
    let failed = 0;
    const summary: Record<string, number> = {};
    for (const [report, groups] of GROUPS) {
      for (const group of groups) {
        let batches = 0;
        const rollup = await measure(async () => {
          const r = await reportBatch(base, shard, salon.workspaceId, report, {
            locationId: salon.location,
            from: dateOf(shape.firstDay),
            to: dateOf(shape.firstDay + days - 1),
            groupBy: group,
          });
          batches = Math.max(batches, r.batches);
          return r;
        }, true);
        const raw = await measure(
          () => sqlBatch(base, shard, [{ sql: rawReport(report, group), params: range }]),
          false,
        );
        const { out } = differences(raw.rows, rollup.rows);
        if (out.length > 0) failed += 1;
        const name = `${report} by ${group}`;
        console.log(
          `  ${name.padEnd(30)} ${String(rollup.rows.length).padStart(6)}   ${rollup.wallMs.toFixed(1).padStart(15)} ${rollup.durationMs.toFixed(1).padStart(7)} ${String(rollup.rowsRead).padStart(9)}   ${raw.wallMs.toFixed(1).padStart(12)} ${raw.durationMs.toFixed(1).padStart(7)} ${String(raw.rowsRead).padStart(9)}  ${out.length === 0 ? "yes" : "NO"}${batches === 1 ? "" : ` (${batches} round trips)`}`,
        );
        for (const line of out.slice(0, 5)) console.log(`      ${line}`);
        const id = `${report}_${group}`.replace("-", "_");
        summary[`${id}_rollup_rows_read`] = rollup.rowsRead;
        summary[`${id}_raw_rows_read`] = raw.rowsRead;
      }
    }
    console.log(
      failed === 0
        ? "rollup totals equal raw-row totals: yes"
        : `rollup totals equal raw-row totals: NO (${failed} reports differ)`,
    );
    if (rebuild) {
      const checked = await rebuildCheck(base, salon);
      console.log(checked.line);
      if (checked.differing > 0) failed += 1;
    }
    console.log(JSON.stringify(summary));
    return failed;
  });
}
