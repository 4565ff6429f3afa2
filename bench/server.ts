import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { openSync } from "node:fs";
import { BENCH_ADMIN_TOKEN } from "./open-salon";

/** Starts `wrangler dev` on a spare port with fresh local state, for benchmarks that need HTTP. */
export async function startDevServer(
  port: number,
  vars: Record<string, string> = {},
  /** Another Worker entry than wrangler.toml's `main` (the distance bench's). */
  script?: string,
  /** Where the Worker's log lines go (its stdout); nowhere by default. */
  logFile?: string,
): Promise<{ base: string; stop: () => void; persist: string }> {
  const log = logFile ? openSync(logFile, "w") : "ignore";
  const child: ChildProcess = spawn(
    "npx",
    [
      "wrangler",
      "dev",
      ...(script ? [script] : []),
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
      "--persist-to",
      `.wrangler/bench-${port}`,
      "--var",
      `ADMIN_TOKEN:${BENCH_ADMIN_TOKEN}`,
      "--var",
      "ALLOW_PRIVATE_WEBHOOKS:true",
      ...Object.entries(vars).flatMap(([k, v]) => ["--var", `${k}:${v}`]),
    ],
    {
      stdio: ["ignore", log, log],
      env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
      detached: true,
    },
  );
  const migrate = spawn(
    "npx",
    [
      "wrangler",
      "d1",
      "migrations",
      "apply",
      "DB",
      "--local",
      "--persist-to",
      `.wrangler/bench-${port}`,
    ],
    {
      stdio: "ignore",
      env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false" },
    },
  );
  await new Promise((resolve) => migrate.on("exit", resolve));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${base}/`)).ok) break;
    } catch {
      await new Promise((r) => setTimeout(r, 300));
    }
  }
  const stop = () => {
    try {
      if (child.pid) process.kill(-child.pid, "SIGTERM");
    } catch {
      // Already stopped.
    }
  };
  return { base, stop, persist: `.wrangler/bench-${port}` };
}

/** Runs several statements in one `wrangler d1 execute` (each spawn costs seconds). */
export function queryD1(persist: string, sql: string[]): unknown[][] {
  const out = execFileSync(
    "npx",
    [
      "wrangler",
      "d1",
      "execute",
      "DB",
      "--local",
      "--persist-to",
      persist,
      "--json",
      "--command",
      sql.join(";\n"),
    ],
    {
      env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
      encoding: "utf8",
      maxBuffer: 1 << 28,
    },
  );
  return (JSON.parse(out) as { results: unknown[] }[]).map((r) => r.results);
}
