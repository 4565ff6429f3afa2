import { type ChildProcess, spawn } from "node:child_process";
import { createWriteStream, mkdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { createStripeLocal } from "../../tools/stripe-local/server";

export const ADMIN_TOKEN = "browser-test-admin-token";
/** What stripe-local signs its events with and the Worker checks them against. */
const STRIPE_WEBHOOK_SECRET = "whsec_browser_test";

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      const port = typeof address === "object" && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

function run(cmd: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      stdio: "ignore",
      env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false" },
    });
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(" ")} exited ${code}`)),
    );
  });
}

/**
 * `wrangler dev` on a free port with fresh local state and migrations applied; its output
 * goes to test-results/wrangler.log (kept by CI with the screenshots). Online payments go to
 * stripe-local (tools/stripe-local) in this process, which POSTs its signed events to the
 * Worker's webhook as Stripe would: the widget's pay step meets a real hosted page.
 */
export async function startServer(): Promise<{
  base: string;
  persist: string;
  stripe: string;
  stop: () => void;
}> {
  const port = await freePort();
  const persist = `.wrangler/browser-${port}`;
  const base = `http://127.0.0.1:${port}`;
  // Every D1 database: the directory (DB) and each shard.
  await run("node", ["scripts/migrate-local.mjs", "--persist-to", persist]);
  const stripe = await createStripeLocal({
    webhookSecret: STRIPE_WEBHOOK_SECRET,
    webhookUrl: `${base}/api/payments/stripe/webhook`,
  });
  mkdirSync("test-results", { recursive: true });
  const log = createWriteStream("test-results/wrangler.log");
  const child: ChildProcess = spawn(
    "npx",
    [
      "wrangler",
      "dev",
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
      "--persist-to",
      persist,
      "--var",
      `ADMIN_TOKEN:${ADMIN_TOKEN}`,
      "--var",
      "MANAGE_TOKEN_SECRET:browser-test-manage-token-secret",
      "--var",
      "CUSTOMER_ID_SECRET:browser-test-customer-id-secret",
      // Links in messages are built on the public origin: this server's own.
      "--var",
      `PUBLIC_ORIGIN:${base}`,
      "--var",
      `STRIPE_API_BASE:${stripe.url}`,
      "--var",
      "STRIPE_SECRET_KEY:sk_test_local",
      "--var",
      `STRIPE_WEBHOOK_SECRET:${STRIPE_WEBHOOK_SECRET}`,
      "--show-interactive-dev-session=false",
    ],
    {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
      detached: true,
    },
  );
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const stop = () => {
    try {
      if (child.pid) process.kill(-child.pid, "SIGTERM");
    } catch {
      // Already gone.
    }
    void stripe.close();
    rmSync(persist, { recursive: true, force: true });
  };
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error("wrangler dev exited; see test-results/wrangler.log");
    try {
      if ((await fetch(`${base}/`)).ok) return { base, persist, stripe: stripe.url, stop };
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      stop();
      throw new Error("wrangler dev did not answer within 120 s; see test-results/wrangler.log");
    }
    await new Promise((r) => setTimeout(r, 300));
  }
}
