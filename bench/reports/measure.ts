import type { BatchResult } from "./sql";

const ROUNDS = 3;

interface Measured {
  wallMs: number;
  durationMs: number;
  rowsRead: number;
  rows: Record<string, unknown>[];
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/** The median of 3 runs, after a warm-up when `warm` (the raw reads warm themselves: seconds each). */
export async function measure(run: () => Promise<BatchResult>, warm: boolean): Promise<Measured> {
  if (warm) await run();
  const runs: BatchResult[] = [];
  for (let i = 0; i < ROUNDS; i++) runs.push(await run());
  return {
    wallMs: median(runs.map((r) => r.wallMs)),
    durationMs: median(runs.map((r) => r.durationMs)),
    rowsRead: median(runs.map((r) => r.rowsRead)),
    rows: runs[0]?.results[0] ?? [],
  };
}

/** Groups whose numbers differ (an all-zero group counts as absent), as printable lines. */
export function differences(raw: Record<string, unknown>[], rollup: Record<string, unknown>[]) {
  const fields = Object.keys(raw[0] ?? rollup[0] ?? {}).filter((f) => f !== "key");
  const byKey = (rows: Record<string, unknown>[]) =>
    new Map(
      rows
        .filter((r) => fields.some((f) => Number(r[f] ?? 0) !== 0))
        .map((r) => [String(r.key), fields.map((f) => Number(r[f] ?? 0)).join(",")]),
    );
  const a = byKey(raw);
  const b = byKey(rollup);
  const out: string[] = [];
  for (const key of new Set([...a.keys(), ...b.keys()]))
    if (a.get(key) !== b.get(key))
      out.push(`${key}: raw [${a.get(key) ?? "none"}] rollup [${b.get(key) ?? "none"}]`);
  return { fields, out };
}
