import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * Runs the README's shell examples exactly as written, with only the `export`
 * lines that `npm start` printed, against `npm start` itself (fresh local
 * state, a spare port). `curl` is wrapped to record each status and to fail
 * the script on any HTTP error, so an example that 4xxs breaks the test.
 */

const README = readFileSync("README.md", "utf8");

/** Every ```sh block but the one with the two commands (npm ci …). */
const blocks = [...README.matchAll(/```sh\n([\s\S]*?)```/g)]
  .map((m) => m[1] ?? "")
  .filter((code) => !/^npm /m.test(code));

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });

const CURL_WRAPPER = `
curl() {
  local out code
  out=$(command curl -sS -w '\\n%{http_code}' "$@") || return 1
  code=\${out##*$'\\n'}
  out=\${out%$'\\n'*}
  echo "$code" >> "$STATUS_LOG"
  printf '%s\\n' "$out"
  if [ "$code" -ge 400 ]; then echo "HTTP $code for curl $*: $out" >&2; return 1; fi
}
`;

let server: ChildProcess;
let exported: Record<string, string> = {};
let state: string;

beforeAll(async () => {
  state = mkdtempSync(join(tmpdir(), "readme-"));
  const port = await freePort();
  server = spawn("node", ["scripts/start.mjs"], {
    env: { ...process.env, PORT: String(port), PERSIST_TO: join(state, "wrangler") },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  exported = await new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`npm start printed no exports:\n${output}`)),
      200_000,
    );
    server.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const lines = [...output.matchAll(/^export ([A-Z_]+)=(\S+)$/gm)];
      // The block is printed at once; the last line names the till.
      if (lines.some((l) => l[1] === "CASH_ACCOUNT")) {
        clearTimeout(timer);
        resolve(Object.fromEntries(lines.map((l) => [l[1], l[2]])));
      }
    });
    server.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    server.on("exit", (code) => reject(new Error(`npm start exited with ${code}:\n${output}`)));
  });
});

afterAll(() => {
  if (server?.pid) {
    try {
      process.kill(-server.pid, "SIGTERM");
    } catch {
      // already gone
    }
  }
  rmSync(state, { recursive: true, force: true });
});

describe("the README's examples", () => {
  it("npm start prints an export line for every variable the examples use", () => {
    const used = new Set(
      blocks.flatMap((code) => [...code.matchAll(/\$\{?([A-Z][A-Z_]+)\b/g)].map((m) => m[1])),
    );
    // Set by the examples themselves.
    for (const own of [
      "H",
      "P",
      "BOOKING",
      "HOLD",
      "ORDER",
      "WEBHOOK",
      "ROOM",
      "MASSAGE",
      "SERIES",
      "SECOND",
      "WAIT",
      "CLASS",
      "PAID",
      "PAID_HOLD",
      "MOVED",
      "FROM",
      "TO",
      "PACKAGE",
      "CUSTOMER",
      "SALE",
      "CUSTOMER_PACKAGE",
      "PACKAGE_DAY",
      "SINCE",
      "UNTIL",
      "G",
      "DURATION",
      "SLOT",
      "GOOGLE_BOOKING",
    ])
      used.delete(own);
    const missing = [...used].filter((name) => name && !(name in exported));
    expect(missing).toEqual([]);
    expect(exported.KEY).toMatch(/^sk_/);
    expect(exported.PK).toMatch(/^pk_/);
  });

  it("run as pasted: every curl answers 2xx", () => {
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    const log = join(state, "statuses");
    writeFileSync(log, "");
    const script = join(state, "examples.sh");
    writeFileSync(script, `set -euo pipefail\n${CURL_WRAPPER}\n${blocks.join("\n")}`);
    const run = spawnSync("bash", [script], {
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "",
        ...exported,
        STATUS_LOG: log,
      },
      encoding: "utf8",
      timeout: 120_000,
    });
    expect(run.stderr, run.stdout.slice(-1500)).toBe("");
    expect(run.status).toBe(0);
    const statuses = readFileSync(log, "utf8").trim().split("\n").map(Number);
    const calls = blocks.join("\n").match(/^\S*curl |\$\(curl /gm)?.length ?? 0;
    expect(statuses.length).toBe(calls);
    expect(statuses.every((s) => s >= 200 && s < 300)).toBe(true);

    // "What the customer was told" shows real messages: the demo customer has an e-mail.
    const lists = run.stdout
      .split("\n")
      .filter((line) => line.startsWith('{"data":['))
      .map((line) => JSON.parse(line) as { data: Record<string, unknown>[] });
    const told = lists.find((l) => l.data.some((m) => m.kind === "booking-confirmation"));
    expect(told, "no GET /messages answer with a confirmation").toBeDefined();
    const kinds = (told?.data ?? []).map((m) => `${m.kind} ${m.channel} ${m.to}`);
    expect(kinds).toContain("booking-confirmation email anna@example.com");
    expect(kinds).toContain("booking-rescheduled email anna@example.com");
  });
});
