import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync } from "node:fs";
import { BENCH_ADMIN_TOKEN } from "./open-salon";

/** A running `wrangler dev`: where it answers, its local state, and where its log goes. */
export interface DevServer {
  base: string;
  persist: string;
  /** The wrangler config it runs (wrangler.toml unless a bench generated another). */
  config: string;
  /** The Worker's stdout and stderr (its log lines: the waitlist bench reads the desk's). */
  logFile: string;
  stop: () => void;
}

/** Every server this process started and has not stopped (see stopDevServers). */
const running = new Set<() => void>();

/**
 * Stops every server this process started: for a caller that gave up waiting for a start
 * (a test hook's timeout) and so never received the server to stop.
 */
export function stopDevServers(): void {
  for (const stop of running) stop();
}

/** How long `wrangler dev` may take to answer before the bench gives up, with its log. */
const START_MS = 120_000;

/**
 * Starts `wrangler dev` on `port` with local state under `.wrangler/bench-<port>`, for
 * benchmarks that need HTTP. It fails, with the end of the server's log, if the server exits
 * or does not answer in time: a Worker that cannot start (a class wrangler.toml binds that
 * the entry does not export, say) is an error here, not a set-up that hangs.
 */
export async function startDevServer(
  port: number,
  vars: Record<string, string> = {},
  /** Another Worker entry than wrangler.toml's `main` (the distance bench's). */
  script?: string,
  /** Where the Worker's log lines go; `.wrangler/bench-<port>.log` by default. */
  logFile = `.wrangler/bench-${port}.log`,
  /** Another wrangler config (the load run's one-shard copy); its D1 bindings are migrated. */
  config = "wrangler.toml",
): Promise<DevServer> {
  const persist = `.wrangler/bench-${port}`;
  mkdirSync(".wrangler", { recursive: true });
  const log = openSync(logFile, "w");
  const child: ChildProcess = spawn(
    "npx",
    [
      "wrangler",
      "dev",
      ...(script ? [script] : []),
      "--config",
      config,
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
      "--persist-to",
      persist,
      "--show-interactive-dev-session=false",
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
  closeSync(log);
  const stop = () => {
    running.delete(stop);
    try {
      if (child.pid) process.kill(-child.pid, "SIGTERM");
    } catch {
      // Already stopped.
    }
  };
  running.add(stop);
  // Alongside the server's start (each costs seconds): the server opens D1 only on a request.
  // Every D1 database of the config (the directory and each shard) gets the same migrations,
  // in one pass (scripts/migrate-local.mjs) rather than a wrangler process per database.
  const failure = await migrate(persist, config);
  if (failure !== null) {
    stop();
    throw new Error(`D1 migrations failed:\n${failure}`);
  }
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + START_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(
        `wrangler dev exited (${child.exitCode ?? child.signalCode}):\n${tail(logFile)}`,
      );
    try {
      // Bounded: a server whose Worker cannot start accepts the connection and never answers.
      const res = await fetch(`${base}/`, { signal: AbortSignal.timeout(5_000) });
      if (res.ok) return { base, persist, config, logFile, stop };
    } catch {
      // Not listening yet.
    }
    // A Worker that does not build, or lacks a class wrangler.toml binds, leaves wrangler dev
    // running and answering nothing.
    if (/Build failed|not exported in your entrypoint/.test(readFileSync(logFile, "utf8"))) {
      stop();
      throw new Error(`the Worker cannot start:\n${tail(logFile)}`);
    }
    if (Date.now() > deadline) {
      stop();
      throw new Error(
        `wrangler dev did not answer on ${base} within ${START_MS / 1000} s:\n${tail(logFile)}`,
      );
    }
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** The D1 bindings a wrangler config declares, in its order (`DB`, then `SHARD_0` …). */
export function d1Bindings(config = "wrangler.toml"): string[] {
  return [
    ...readFileSync(config, "utf8").matchAll(/^\[\[d1_databases\]\]\s*\nbinding\s*=\s*"([^"]+)"/gm),
  ].map((m) => m[1] ?? "");
}

/** Applies the migrations to every local database of `config`; null when done, else the output. */
async function migrate(persist: string, config: string): Promise<string | null> {
  const child = spawn(
    "node",
    ["scripts/migrate-local.mjs", "--config", config, "--persist-to", persist],
    { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, WRANGLER_SEND_METRICS: "false" } },
  );
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  return code === 0 ? null : `exit ${code}:\n${output}`;
}

/** The last lines of a log, for an error message. */
function tail(file: string, lines = 40): string {
  return existsSync(file) ? readFileSync(file, "utf8").split("\n").slice(-lines).join("\n") : "";
}

/**
 * Runs a bench against `given` when there is one (the test suite's shared server, left
 * running), or against its own server from `start`, stopped afterwards.
 */
export async function withDevServer<T>(
  given: DevServer | undefined,
  start: () => Promise<DevServer>,
  work: (server: DevServer) => Promise<T>,
): Promise<T> {
  const server = given ?? (await start());
  try {
    return await work(server);
  } finally {
    if (!given) server.stop();
  }
}

/**
 * Runs several statements in one `wrangler d1 execute` (each spawn costs seconds). The server
 * may be writing the same file: a read that finds it locked is tried again, a few times.
 */
export function queryD1(
  persist: string,
  sql: string[],
  /** Which database: the directory (`DB`) unless a shard's binding is named. */
  { database = "DB", config = "wrangler.toml" }: { database?: string; config?: string } = {},
): unknown[][] {
  for (let attempt = 1; ; attempt++) {
    try {
      const out = execFileSync(
        "npx",
        [
          "wrangler",
          "d1",
          "execute",
          database,
          "--config",
          config,
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
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      return (JSON.parse(out) as { results: unknown[] }[]).map((r) => r.results);
    } catch (error) {
      const text = `${String(error)} ${(error as { stderr?: string }).stderr ?? ""}`;
      if (attempt >= 4 || !/SQLITE_BUSY|database is locked/i.test(text)) throw error;
      execFileSync("sleep", ["1"]);
    }
  }
}
