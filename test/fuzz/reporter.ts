import type { UserConsoleLog } from "vitest";
import type { Reporter } from "vitest/node";
import type { Summary } from "./lib/summary";

/**
 * Adds up the shards of `npm run fuzz` (each prints one `FUZZ_SUMMARY` line)
 * and prints the totals: requests, statuses, violations, soft findings, wall
 * time. Fails the run (exit code 1) when the shards together sent fewer than
 * `minRequests` requests, or when an operation never answered 2xx (its success
 * path was not reached), so a fuzz that silently did little cannot pass.
 */

interface Soft {
  shard: number;
  kind: string;
  count: number;
  examples: { op: string; request: string; response: string; detail: string }[];
}

export default class FuzzReporter implements Reporter {
  private readonly summaries: Summary[] = [];
  private readonly soft: Soft[] = [];
  private started = Date.now();

  constructor(private readonly minRequests: number) {}

  onInit() {
    this.started = Date.now();
  }

  onUserConsoleLog(log: UserConsoleLog) {
    for (const line of log.content.split("\n")) {
      if (line.startsWith("FUZZ_SUMMARY "))
        this.summaries.push(JSON.parse(line.slice(13)) as Summary);
      if (line.startsWith("FUZZ_SOFT ")) this.soft.push(JSON.parse(line.slice(10)) as Soft);
    }
  }

  onTestRunEnd() {
    const sum = (f: (s: Summary) => number) => this.summaries.reduce((a, s) => a + f(s), 0);
    const statuses: Record<string, number> = {};
    const cases: Record<string, number> = {};
    const mutations: Record<string, number> = {};
    const passMs = this.summaries.flatMap((s) => s.pass_ms);
    const validOk = new Map<string, [number, number]>();
    for (const s of this.summaries) {
      for (const [k, v] of Object.entries(s.by_status)) statuses[k] = (statuses[k] ?? 0) + v;
      for (const [k, v] of Object.entries(s.cases)) cases[k] = (cases[k] ?? 0) + v;
      for (const [k, v] of Object.entries(s.mutations ?? {}))
        mutations[k] = (mutations[k] ?? 0) + v;
      for (const [op, rate] of Object.entries(s.valid_success_rate)) {
        const [ok = 0, all = 0] = rate.split("/").map(Number);
        const [a, b] = validOk.get(op) ?? [0, 0];
        validOk.set(op, [a + ok, b + all]);
      }
    }
    const never = this.summaries.length
      ? (this.summaries[0]?.ops_never_2xx ?? []).filter((op) =>
          this.summaries.every((s) => s.ops_never_2xx.includes(op)),
        )
      : [];
    const softByOp = new Map<string, Map<string, number>>();
    const refusals = new Map<string, number>();
    for (const s of this.summaries) {
      for (const [kind, ops] of Object.entries(s.soft_by_op ?? {})) {
        const m = softByOp.get(kind) ?? new Map<string, number>();
        for (const [op, n] of Object.entries(ops)) m.set(op, (m.get(op) ?? 0) + n);
        softByOp.set(kind, m);
      }
      for (const [r, n] of Object.entries(s.refusals ?? {}))
        refusals.set(r, (refusals.get(r) ?? 0) + n);
    }
    const softTotals = new Map<string, { count: number; examples: Soft["examples"] }>();
    for (const s of this.soft) {
      const entry = softTotals.get(s.kind) ?? { count: 0, examples: [] };
      entry.count += s.count;
      for (const e of s.examples) if (entry.examples.length < 2) entry.examples.push(e);
      softTotals.set(s.kind, entry);
    }
    const requests = sum((s) => s.requests);
    const totals = {
      shards: this.summaries.length,
      passes: sum((s) => s.passes),
      requests,
      setup_requests: sum((s) => s.setup_requests),
      server_errors_5xx: sum((s) => s.server_errors),
      error_body_violations: sum((s) => s.error_body_violations),
      rows_left_by_rejections: sum((s) => s.rows_left_by_rejections),
      response_schema_violations: sum((s) => s.response_schema_violations),
      all_violations: sum((s) => s.violations),
      by_status: statuses,
      by_case: cases,
      pass_s: {
        first: this.summaries.map((s) => (s.pass_ms[0] ?? 0) / 1000),
        last: this.summaries.map((s) => (s.pass_ms[s.pass_ms.length - 1] ?? 0) / 1000),
        min: Math.min(...passMs) / 1000,
        max: Math.max(...passMs) / 1000,
      },
      seeds: this.summaries.map((s) => s.seed),
      wall_time_s: Math.round((Date.now() - this.started) / 1000),
    };
    const out: string[] = ["", "─── fuzz totals ───", JSON.stringify(totals, null, 2)];
    out.push(
      `body mutations sent: ${Object.entries(mutations)
        .sort((a, b) => b[1] - a[1])
        .map(([k, v]) => `${k} ${v}`)
        .join(", ")}`,
    );
    out.push("valid requests answered 2xx, per operation:");
    for (const [op, [ok, all]] of [...validOk].sort())
      out.push(`  ${`${ok}/${all}`.padStart(9)}  ${op}`);
    if (never.length) {
      // Every operation's success path must be reached: a valid body that never succeeds needs a fixup.
      out.push(`FUZZ FAILED: operations never answered 2xx: ${never.join(", ")}`);
      process.exitCode = 1;
    }
    if (softTotals.size) {
      out.push("soft findings (reported, not failing):");
      for (const [kind, e] of [...softTotals].sort((a, b) => b[1].count - a[1].count)) {
        out.push(`  ${String(e.count).padStart(6)}  ${kind}`);
        const ops = [...(softByOp.get(kind) ?? new Map<string, number>())].sort(
          (a, b) => b[1] - a[1],
        );
        out.push(
          `            by operation: ${ops
            .slice(0, 8)
            .map(([op, n]) => `${op} (${n})`)
            .join(", ")}${ops.length > 8 ? `, … ${ops.length - 8} more` : ""}`,
        );
        for (const x of e.examples)
          out.push(
            `            e.g. ${x.request.slice(0, 240)}\n              → ${x.response.slice(0, 200)} ${x.detail.slice(0, 160)}`,
          );
      }
    }
    if (refusals.size) {
      out.push("most common reasons valid requests were refused:");
      for (const [r, n] of [...refusals].sort((a, b) => b[1] - a[1]).slice(0, 15))
        out.push(`  ${String(n).padStart(6)}  ${r}`);
    }
    if (requests < this.minRequests) {
      out.push(`FUZZ FAILED: ${requests} requests, fewer than the ${this.minRequests} required.`);
      process.exitCode = 1;
    }
    console.log(out.join("\n"));
  }
}
