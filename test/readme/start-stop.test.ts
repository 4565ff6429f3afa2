import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * `npm start` as a newcomer meets it: the terminal shows one line and the banner (the build,
 * the migrations and wrangler's own output go to the log file the banner names), and a stop
 * (`kill <npm's pid>`, or Ctrl-C's SIGINT to the terminal's process group) leaves nothing
 * holding the port.
 */

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });

/** Whether something still listens on the port (a listen of our own fails). */
const portTaken = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(true));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(false)));
  });

/** Processes (any) whose command line names the port: wrangler, workerd, npx. */
const holders = (port: number) =>
  spawnSync("ps", ["-eo", "pid,args"], { encoding: "utf8" })
    .stdout.split("\n")
    .filter((line) => line.includes(`--port ${port}`) || line.includes(`127.0.0.1:${port} `));

const exited = (child: ChildProcess, ms: number) =>
  new Promise<boolean>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve(true);
    const timer = setTimeout(() => resolve(false), ms);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve(true);
    });
  });

let state: string;
beforeAll(() => {
  state = mkdtempSync(join(tmpdir(), "start-stop-"));
});
afterAll(() => {
  rmSync(state, { recursive: true, force: true });
});

/** `npm start` in its own process group (as a terminal runs it), up to its banner. */
async function started(port: number, log: string) {
  const child = spawn("npm", ["start"], {
    env: {
      ...process.env,
      PORT: String(port),
      PERSIST_TO: join(state, "wrangler"),
      START_LOG: log,
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner:\n${output}`)), 200_000);
    const check = () => {
      if (/^export CASH_ACCOUNT=/m.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on("data", check);
    child.once("exit", (code) => reject(new Error(`npm start exited with ${code}:\n${output}`)));
  });
  return { child, output: () => output };
}

/** Whatever is left, by force: a failed test must not leave a server behind. */
function cleanUp(child: ChildProcess, port: number) {
  for (const line of holders(port)) {
    const pid = Number(line.trim().split(/\s+/)[0]);
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone
    }
  }
  try {
    if (child.pid) process.kill(-child.pid, "SIGKILL");
  } catch {
    // gone
  }
}

describe("npm start", () => {
  it("prints the banner and little else, names its log, and stops on kill <pid> with the port free", async () => {
    const port = await freePort();
    const log = join(state, "first.log");
    const { child, output } = await started(port, log);
    try {
      const printed = output();
      const lines = printed.trimEnd().split("\n");
      // npm's two lines, the start line, the banner (13 lines, 15 exports, rules) and no more.
      expect(lines.length, printed).toBeLessThanOrEqual(40);
      expect(printed).toContain(`Logs              ${log}`);
      expect(printed).not.toMatch(/Migrations to be applied|┌|\bat .*\.js:\d+/);
      // The migrations and wrangler's own output are in the log instead.
      const written = readFileSync(log, "utf8");
      expect(written).toMatch(/0001_/);
      expect(written).toMatch(/Ready on/);

      // What the issue saw: npm's pid killed, wrangler and workerd left holding the port.
      process.kill(child.pid ?? 0, "SIGTERM");
      expect(await exited(child, 15_000)).toBe(true);
      await expect.poll(() => portTaken(port), { timeout: 10_000 }).toBe(false);
      await expect.poll(() => holders(port), { timeout: 10_000 }).toEqual([]);
    } finally {
      cleanUp(child, port);
    }
  });

  it("stops on Ctrl-C (SIGINT to the terminal's process group) with the port free", async () => {
    const port = await freePort();
    const { child } = await started(port, join(state, "second.log"));
    try {
      process.kill(-(child.pid ?? 0), "SIGINT");
      expect(await exited(child, 15_000)).toBe(true);
      await expect.poll(() => portTaken(port), { timeout: 10_000 }).toBe(false);
      await expect.poll(() => holders(port), { timeout: 10_000 }).toEqual([]);
    } finally {
      cleanUp(child, port);
    }
  });
});
