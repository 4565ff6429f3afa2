import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { Fuzzer, seedFor } from "./harness";

const vars = env as unknown as Record<string, string | undefined>;

/**
 * The fuzz as a vitest test. One call per test file: each file of the pool
 * runs in its own workerd (own D1, own isolate), so `npm run fuzz` splits the
 * passes over several shard files that run side by side.
 *
 * FUZZ_RUNS: passes per file (default 1). FUZZ_SEED: replay a run (each shard
 * adds its number). FUZZ_SECONDS: stop starting passes after this long.
 */
export function fuzzSuite(shard: number, defaults: { passes: number; timeoutMs: number }) {
  describe(`fuzzing every operation of both OpenAPI documents (shard ${shard})`, () => {
    it(
      "never answers 5xx, keeps the error body, leaves no rows behind a rejection, and answers 2xx as documented",
      async () => {
        const passes = Number(vars.FUZZ_RUNS ?? defaults.passes);
        const seconds = Number(vars.FUZZ_SECONDS ?? Number.NaN);
        const fuzzer = new Fuzzer({
          shard,
          passes,
          seed: seedFor(shard),
          timeLimitMs: Number.isFinite(seconds) ? seconds * 1000 : undefined,
        });
        const summary = await fuzzer.run();
        expect(fuzzer.operations.length).toBeGreaterThan(40);
        expect(fuzzer.operations.some((o) => o.api === "admin")).toBe(true);
        // One line per shard for the fuzz reporter to add up, and the findings below it.
        console.log(`FUZZ_SUMMARY ${JSON.stringify(summary)}`);
        for (const s of fuzzer.softExamples())
          console.log(`FUZZ_SOFT ${JSON.stringify({ shard, ...s })}`);
        const report = fuzzer.violations
          .map(
            (v) =>
              `[${v.kind}] ${v.op}: ${v.detail}\n    request:  ${v.request}\n    response: ${v.response}`,
          )
          .join("\n");
        expect(fuzzer.violations.length, `seed ${summary.seed}:\n${report}`).toBe(0);
      },
      defaults.timeoutMs,
    );
  });
}
