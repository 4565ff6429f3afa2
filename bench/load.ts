import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { type Check, checkSalon, readDatabase } from "./load-checks";
import {
  ADMIN,
  auditSalon,
  createWorkspace,
  driveSalon,
  type Op,
  POOL_SIZE,
  type Salon,
  type Answer,
  type Sender,
  sender,
  setupSalon,
  Tally,
} from "./load-salon";
import { type DevServer, d1Bindings, startDevServer } from "./server";
import { percentile } from "./stats";

/**
 * `npm run load`: a mixed workload against `wrangler dev` for a fixed time, spread over many
 * workspaces (40 by default), which the create spreads over the shards (the emptiest first).
 * In each workspace, besides searching, booking and selling, its clients run the booking
 * lifecycle (reschedule, change staffer, replace service, complete, cancel) on one shared pool
 * of recent open bookings, sometimes two or three operations on one booking at once, so the
 * concurrency guards are exercised; a treatment room with two units that massages need is
 * booked mostly in the first days so its units are contended, and now and then blocked for
 * maintenance. Afterwards every staffer's and room unit's calendar object is audited against
 * D1, and each workspace's invariants are checked from its shard's database
 * (bench/load-checks.ts), including that its rows are on that shard only. Any violation or
 * 5xx fails the run.
 *
 * Run directly, it starts two servers, one with wrangler.toml's four shards and one with
 * SHARD_0 alone (generated copies of the config, each in a temp folder), sets up the same
 * workspaces on each, drives both in alternating windows, checks both, and prints bookings per
 * second and D1 round trips per request of both side by side. LOAD_SRC=<dir> runs the Worker
 * of another checkout (a snapshot nobody edits: see `loadConfig`); LOAD_SECONDS (per server),
 * LOAD_CLIENTS (in all) and LOAD_WORKSPACES set the sizes.
 */
const PORT = 8797;
const ONE_SHARD_PORT = 8796;
/** Webhook retries a second apart: the run waits for every event to arrive. */
export const LOAD_VARS = { WEBHOOK_RETRY_BASE_SECONDS: "1" };
/**
 * Requests in flight at most, over all workspaces. Past a few hundred wrangler dev resets
 * connections; at 100 on this 2-core machine its proxy answered hundreds of POSTs 503 "Your
 * worker restarted mid-request" (the Worker had not restarted). The server is CPU-bound well
 * below that: more in flight only queues.
 */
const MAX_IN_FLIGHT = 32;
/** Workspaces set up at once (each is ~20 requests one after another). */
const SETUP_AT_ONCE = 8;

/** A local webhook receiver (on a spare port): which event ids arrived, and how often. */
async function startReceiver() {
  const seen = new Map<string, number>();
  const server = createServer((req, res) => {
    const id = String(req.headers["webhook-id"] ?? "");
    req.resume();
    req.on("end", () => {
      seen.set(id, (seen.get(id) ?? 0) + 1);
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  return { seen, url: `http://127.0.0.1:${port}/hook`, close: () => server.close() };
}

/** `work` over `items`, at most `n` at once, in the items' order. */
async function inBatches<T, R>(items: T[], n: number, work: (item: T, i: number) => Promise<R>) {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += n)
    out.push(...(await Promise.all(items.slice(i, i + n).map((item, j) => work(item, i + j)))));
  return out;
}

/** What one run measured. */
export interface LoadResult {
  failed: number;
  shards: string[];
  /** Workspaces per shard, as the create answers said. */
  spread: Map<string, number>;
  seconds: number;
  requests: number;
  bookings: number;
  tally: Tally;
}

interface LoadOptions {
  /** Clients in all, spread evenly over the workspaces (at least one each). */
  clients?: number;
  workspaces?: number;
  /** Plain authenticated GETs, alone, for the yardstick. */
  plainGets?: number;
  /** Printed in the run's first line (which configuration it is). */
  label?: string;
}

/** A server with its workspaces set up, driven for one window or more, then checked. */
interface Prepared {
  server: DevServer;
  send: Sender;
  salons: Salon[];
  setupSeconds: number;
  /** What `GET /api/admin/v1/shards` answered, when the server has it. */
  listed: Answer;
  /** Seconds driven so far. */
  elapsed: number;
}

/**
 * One run; it stops the server before reading D1 (a given `server` too, started with
 * LOAD_VARS; the test suite's shared one, which other modes still use, has a stop that does
 * nothing). Answers how many invariants failed.
 */
export async function runLoad({
  seconds = Number(process.env.LOAD_SECONDS ?? 30),
  server: given,
  ...options
}: LoadOptions & { seconds?: number; server?: DevServer } = {}): Promise<number> {
  const receiver = await startReceiver();
  const server = given ?? (await startDevServer(PORT, LOAD_VARS));
  try {
    const run = await prepare(server, receiver.url, options);
    await drive(run, seconds);
    return (await finish(run, receiver.seen, options)).failed;
  } finally {
    server.stop();
    receiver.close();
  }
}

/** The workspaces, made one after another (creates at once would all count the same emptiest shard), then filled. */
async function prepare(
  server: DevServer,
  webhookUrl: string,
  {
    clients = Number(process.env.LOAD_CLIENTS ?? 40),
    workspaces = Number(process.env.LOAD_WORKSPACES ?? 40),
  }: LoadOptions,
): Promise<Prepared> {
  const send = sender(server.base, MAX_IN_FLIGHT);
  const perSalon = Math.max(1, Math.floor(clients / workspaces));
  const setupStarted = Date.now();
  const created = [];
  for (let i = 0; i < workspaces; i++) created.push(await createWorkspace(send, `Load ${i}`));
  const salons = await inBatches(created, SETUP_AT_ONCE, (ws, i) =>
    setupSalon(send, ws, webhookUrl, perSalon + (i < clients % workspaces ? 1 : 0)),
  );
  const setupSeconds = (Date.now() - setupStarted) / 1000;
  const listed = await send("/api/admin/v1/shards", {
    headers: { authorization: `Bearer ${ADMIN}` },
  });
  return { server, send, salons, setupSeconds, listed, elapsed: 0 };
}

/** Every workspace's clients for `seconds` (then until their requests in flight are answered). */
async function drive(run: Prepared, seconds: number) {
  const started = Date.now();
  await Promise.all(
    run.salons.map((salon) => driveSalon(run.send, salon, started + seconds * 1000)),
  );
  run.elapsed += (Date.now() - started) / 1000;
}

/** The audits, the yardstick, the queue drained, the server stopped, D1 read, checked and reported. */
async function finish(
  run: Prepared,
  seen: Map<string, number>,
  { plainGets = 200, label = "" }: LoadOptions,
): Promise<LoadResult> {
  const { server, send, salons, elapsed } = run;
  // Every request has been answered; give confirms still in flight a second, then compare
  // every calendar object with D1.
  await new Promise((r) => setTimeout(r, 1000));
  const audits = await inBatches(salons, SETUP_AT_ONCE, (salon) => auditSalon(send, salon));

  // A plain authenticated GET, alone, as the yardstick.
  const first = salons[0] as Salon;
  const plain: number[] = [];
  for (let i = 0; i < plainGets; i++)
    plain.push(
      (await send("/api/public/v2/locations", { headers: first.H(first.keys[0] ?? "") })).ms,
    );

  // Let the queue drain: wait until the receiver has been quiet for 5 s, then stop the
  // server, since wrangler's local D1 cannot be read by a second process while it writes.
  let last = -1;
  for (let quiet = 0, i = 0; quiet < 5 && i < 90; i++) {
    const now = [...seen.values()].reduce((a, b) => a + b, 0);
    quiet = now === last ? quiet + 1 : 0;
    last = now;
    await new Promise((r) => setTimeout(r, 1000));
  }
  server.stop();
  await new Promise((r) => setTimeout(r, 2000));

  const databases = d1Bindings(server.config);
  const ids = salons.map((s) => s.id);
  const rows = new Map(
    databases.map((name) => [name, readDatabase(server.persist, server.config, name, ids)]),
  );
  const checks = salons.map((salon, i) => {
    const home = rows.get(salon.shard);
    const audit = audits[i];
    if (!audit) throw new Error(`no audit of workspace ${salon.id}`);
    if (!home) throw new Error(`workspace ${salon.id} placed on ${salon.shard}, not a database`);
    const elsewhere = new Map([...rows].filter(([name]) => name !== salon.shard));
    return checkSalon(salon, home, elsewhere, audit, seen);
  });

  const tally = new Tally();
  for (const s of salons) tally.add(s.tally);
  const requests = [...tally.latencies.values()].reduce((a, l) => a + l.length, 0);
  const bookings = salons.reduce((a, s) => a + s.created.size, 0);
  const shards = databases.filter((d) => d !== "DB");
  const spread = new Map<string, number>();
  for (const s of salons) spread.set(s.shard, (spread.get(s.shard) ?? 0) + 1);

  // Report.
  const plainP50 = percentile(plain, 50);
  console.log(
    `Mixed load against wrangler dev${label ? ` (${label})` : ""}: ${salons.reduce((a, s) => a + s.keys.length, 0)} clients for ${elapsed.toFixed(1)} s over ${salons.length} workspaces (set up in ${run.setupSeconds.toFixed(0)} s), at most ${MAX_IN_FLIGHT} requests in flight`,
  );
  console.log(
    `  workspaces per shard (create answers): ${[...spread]
      .sort()
      .map(([k, v]) => `${k} ${v}`)
      .join(", ")}`,
  );
  if (run.listed.status === 200)
    console.log(
      `  GET /api/admin/v1/shards (every workspace the databases hold): ${(
        JSON.parse(run.listed.text).data as {
          name: string;
          workspaces: number;
          size_bytes: number;
        }[]
      )
        .map((d) => `${d.name} ${d.workspaces} (${(d.size_bytes / 1e6).toFixed(1)} MB)`)
        .join(", ")}`,
    );
  console.log(
    `  requests ${requests}, throughput ${(requests / elapsed).toFixed(1)} req/s, bookings ${bookings} (${(bookings / elapsed).toFixed(2)}/s), lifecycle on a pool per workspace of its ${POOL_SIZE} most recent open bookings, ${salons.reduce((a, s) => a + s.races, 0)} races of 2–3 operations on one booking at once`,
  );
  for (const [op, l] of tally.latencies)
    console.log(
      `  ${op.padEnd(10)} n=${String(l.length).padStart(5)}  ${(l.length / elapsed).toFixed(1).padStart(6)}/s  p50 ${percentile(l, 50).toFixed(1)} ms  p99 ${percentile(l, 99).toFixed(1)} ms  p50 ÷ plain GET ${(percentile(l, 50) / plainP50).toFixed(1)}×`,
    );
  console.log(
    `  plain authenticated GET alone: p50 ${plainP50.toFixed(1)} ms  p99 ${percentile(plain, 99).toFixed(1)} ms`,
  );
  console.log("Outcomes (status code × count)");
  for (const [op, byKey] of tally.outcomes)
    console.log(
      `  ${op.padEnd(10)} ${[...byKey]
        .sort((a, b) => b[1] - a[1])
        .map(([k, v]) => `${k} ×${v}`)
        .join(", ")}`,
    );
  console.log("D1 round trips per 2xx answer (Server-Timing d1): mean, median, most");
  for (const [op, l] of [...tally.trips].sort())
    console.log(`  ${op.padEnd(10)} ${tripsSummary(l)}`);
  const failed = report(salons, checks, tally);
  return { failed, shards, spread, seconds: elapsed, requests, bookings, tally };
}

const tripsSummary = (l: number[]) => {
  const sorted = [...l].sort((a, b) => a - b);
  const mean = l.reduce((a, b) => a + b, 0) / Math.max(1, l.length);
  return `n=${String(l.length).padStart(5)}  mean ${mean.toFixed(2)}  median ${sorted[Math.floor(sorted.length / 2)] ?? "-"}  most ${sorted.at(-1) ?? "-"}`;
};

/** Prints each invariant over every workspace (and each failing workspace); how many failed. */
function report(salons: Salon[], checks: Check[][], tally: Tally): number {
  console.log(`Invariants, per workspace (${salons.length})`);
  let failed = 0;
  for (const [k, { name }] of (checks[0] ?? []).entries()) {
    const failing = salons.flatMap((s, i) => {
      const c = checks[i]?.[k];
      return c && !c.ok ? [`${s.id} on ${s.shard}: ${c.detail}`] : [];
    });
    const example = checks.find((c) => c[k]?.ok)?.[k]?.detail ?? "";
    console.log(
      `  ${failing.length === 0 ? "ok  " : "FAIL"} ${name}: ${salons.length - failing.length}/${salons.length} workspaces${example ? ` (e.g. ${example})` : ""}`,
    );
    for (const f of failing) console.log(`       ${f}`);
    if (failing.length > 0) failed++;
  }
  const answered = tally.fiveXX + tally.networkErrors === 0;
  console.log(
    `  ${answered ? "ok  " : "FAIL"} 5xx responses of the Worker: ${tally.fiveXX}, network errors: ${tally.networkErrors} (answers lost by wrangler dev's proxy, not the Worker's: ${tally.lostOf(...tally.lost.keys())})`,
  );
  if (!answered) failed++;
  console.log(failed === 0 ? "PASS" : `FAIL: ${failed} invariant(s) violated`);
  return failed;
}

/**
 * `<root>/wrangler.toml` with the shards past the first `shards` removed, its paths made
 * absolute so it can live in a folder of its own (wrangler resolves a config's paths from its own
 * folder). `root` may be a snapshot of the tree (LOAD_SRC): `wrangler dev` restarts the Worker
 * whenever a file it bundles changes, which in a tree others are editing fails requests.
 */
export function loadConfig(shards: number, root = "."): string {
  const at = (p: string) => resolve(root, p);
  const text = readFileSync(at("wrangler.toml"), "utf8")
    .replace(
      /\[\[d1_databases\]\]\nbinding = "SHARD_(\d+)"\n(?:\w[^\n]*\n)*\n?/g,
      (block, n: string) => (Number(n) < shards ? block : ""),
    )
    .replace(/^main = "([^"]+)"/m, (_, p: string) => `main = "${at(p)}"`)
    .replace(/^migrations_dir = "([^"]+)"/gm, (_, p: string) => `migrations_dir = "${at(p)}"`)
    .replace(/^directory = "([^"]+)"/m, (_, p: string) => `directory = "${at(p)}"`);
  // A folder of its own: nothing else written beside the config (wrangler watches it).
  const dir = join(tmpdir(), `salon-load-${shards}-shards`);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "wrangler.toml");
  writeFileSync(file, text);
  const bindings = d1Bindings(file);
  if (bindings.length !== shards + 1)
    throw new Error(`the ${shards}-shard config has ${bindings.join()}`);
  return file;
}

/** Both runs' numbers side by side. */
function compare(four: LoadResult, one: LoadResult, rounds: number) {
  const row = (what: string, a: string, b: string) =>
    console.log(`  ${what.padEnd(38)} ${a.padStart(14)} ${b.padStart(14)}`);
  console.log("");
  console.log(
    `Summary: the same load against 4 shards and against 1, in ${rounds} alternating windows each (this machine, one run)`,
  );
  row("", `${four.shards.length} shards`, `${one.shards.length} shard`);
  row(
    "workspaces per shard",
    [...four.spread.values()].join("/"),
    [...one.spread.values()].join("/"),
  );
  row("seconds driven", four.seconds.toFixed(1), one.seconds.toFixed(1));
  row(
    "bookings/s",
    (four.bookings / four.seconds).toFixed(2),
    (one.bookings / one.seconds).toFixed(2),
  );
  row(
    "requests/s",
    (four.requests / four.seconds).toFixed(1),
    (one.requests / one.seconds).toFixed(1),
  );
  row("invariants failed", String(four.failed), String(one.failed));
  const ops = [...new Set([...four.tally.trips.keys(), ...one.tally.trips.keys()])].sort() as Op[];
  for (const op of ops) {
    const mean = (t: Tally) => {
      const l = t.trips.get(op) ?? [];
      return l.length ? (l.reduce((a, b) => a + b, 0) / l.length).toFixed(2) : "-";
    };
    row(`D1 round trips, ${op} (mean of 2xx)`, mean(four.tally), mean(one.tally));
  }
  console.log(
    "  Locally every shard is a SQLite file on one disk, served by one workerd per server on this machine's cores: what 4 shards gain here is bounded by that, not by D1.",
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = process.env.LOAD_SRC ?? ".";
  // The servers do not reload on a change of their (generated, unchanging) config.
  process.env.WRANGLER_CI_DISABLE_CONFIG_WATCHING = "true";
  const seconds = Number(process.env.LOAD_SECONDS ?? 30);
  const ROUNDS = 3;
  // Fresh databases: the spread over shards is then this run's workspaces alone.
  for (const port of [PORT, ONE_SHARD_PORT])
    rmSync(`.wrangler/bench-${port}`, { recursive: true, force: true });
  const receiver = await startReceiver();
  const start = (port: number, shards: number) =>
    startDevServer(
      port,
      LOAD_VARS,
      undefined,
      `.wrangler/bench-${port}.log`,
      loadConfig(shards, root),
    );
  const servers = [await start(PORT, 4), await start(ONE_SHARD_PORT, 1)] as const;
  try {
    const four = await prepare(servers[0], receiver.url, {});
    const one = await prepare(servers[1], receiver.url, {});
    // Alternating windows (4, 1, 1, 4, 4, 1 …): the other work on this machine changes over
    // minutes, and each configuration gets the same share of every stretch of it.
    for (let r = 0; r < ROUNDS; r++)
      for (const run of r % 2 === 0 ? [four, one] : [one, four]) await drive(run, seconds / ROUNDS);
    const fourResult = await finish(four, receiver.seen, {
      label: `4 shards, ${root === "." ? "this tree" : root}`,
    });
    console.log("");
    const oneResult = await finish(one, receiver.seen, {
      label: `SHARD_0 alone, ${root === "." ? "this tree" : root}`,
    });
    compare(fourResult, oneResult, ROUNDS);
    if (fourResult.failed + oneResult.failed > 0) process.exitCode = 1;
  } finally {
    for (const server of servers) server.stop();
    receiver.close();
  }
}
