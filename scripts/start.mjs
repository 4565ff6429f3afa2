// `npm start`: build the static assets, migrate local D1 (the directory and every shard),
// start `wrangler dev`, seed a demo workspace through the management API (idempotently)
// and print how to call it, as `export` lines a shell can paste.
//
// The terminal gets one line while starting and the banner; everything the
// build, the migrations and wrangler/workerd write goes to the log file the
// banner names. SIGINT (Ctrl-C) and SIGTERM (`kill <pid>`) stop wrangler and
// workerd with it, so the port is free once this process has exited.
import { spawn, spawnSync } from "node:child_process";
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { dirname, relative, resolve } from "node:path";
import { ensureDemoWorkspace } from "./seed.mjs";

const HOST = "127.0.0.1";
const PORT = Number(process.env.PORT ?? 8787);
const BASE_URL = `http://${HOST}:${PORT}`;
const ADMIN_TOKEN = process.env.ADMIN_TOKEN ?? "dev-admin-token";
// Signs manage links; production sets its own secret (docs/deploy.md).
const MANAGE_TOKEN_SECRET = process.env.MANAGE_TOKEN_SECRET ?? "dev-manage-token-secret";
// Keys customer ids; production sets its own secret (docs/deploy.md).
const CUSTOMER_ID_SECRET = process.env.CUSTOMER_ID_SECRET ?? "dev-customer-id-secret";
const ALLOW_PRIVATE_WEBHOOKS = process.env.ALLOW_PRIVATE_WEBHOOKS ?? "true";
// Local state (D1, Durable Objects, the demo's credentials); a separate folder
// gives a separate, fresh demo (the README test uses one).
const PERSIST_TO = process.env.PERSIST_TO;
const persist = PERSIST_TO ? ["--persist-to", PERSIST_TO] : [];
// Inside the project's git-ignored .wrangler folder unless START_LOG names another file.
const LOG = resolve(process.env.START_LOG ?? ".wrangler/logs/start.log");
const shownLog = relative(process.cwd(), LOG).startsWith("..") ? LOG : relative(process.cwd(), LOG);
const env = { ...process.env, WRANGLER_SEND_METRICS: "false" };

/** A port free right now on HOST. */
const freePort = () =>
  new Promise((done, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, HOST, () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
  });

// Online payments: without STRIPE_SECRET_KEY the project's own Stripe-compatible test server
// (tools/stripe-local) stands in for Stripe and POSTs its signed events to this Worker's webhook;
// with it, the three settings come from the environment.
const STRIPE_LOCAL = !process.env.STRIPE_SECRET_KEY;
const STRIPE_LOCAL_PORT = STRIPE_LOCAL
  ? Number(process.env.STRIPE_LOCAL_PORT ?? (await freePort()))
  : 0;
const STRIPE_API_BASE = STRIPE_LOCAL
  ? `http://${HOST}:${STRIPE_LOCAL_PORT}`
  : (process.env.STRIPE_API_BASE ?? "https://api.stripe.com");
const STRIPE_SECRET_KEY = process.env.STRIPE_SECRET_KEY ?? "sk_test_local";
const STRIPE_WEBHOOK_SECRET = STRIPE_LOCAL
  ? `whsec_local_${randomBytes(16).toString("hex")}`
  : (process.env.STRIPE_WEBHOOK_SECRET ?? "");

// Reserve with Google's real-time updates: without RWG_SERVICE_ACCOUNT_JSON, tools/google-local
// stands in for Google (the token endpoint and the Maps Booking API), with a service account key
// pair made for this run; with it, the settings come from the environment.
const GOOGLE_LOCAL = !process.env.RWG_SERVICE_ACCOUNT_JSON;
const GOOGLE_LOCAL_PORT = GOOGLE_LOCAL
  ? Number(process.env.GOOGLE_LOCAL_PORT ?? (await freePort()))
  : 0;
const RWG_NOTIFY_URL = GOOGLE_LOCAL
  ? `http://${HOST}:${GOOGLE_LOCAL_PORT}`
  : (process.env.RWG_NOTIFY_URL ?? "https://mapsbooking.googleapis.com");
const RWG_PARTNER_ID = process.env.RWG_PARTNER_ID ?? (GOOGLE_LOCAL ? "20001" : "");
const googleKeys = GOOGLE_LOCAL
  ? generateKeyPairSync("rsa", {
      modulusLength: 2048,
      publicKeyEncoding: { type: "spki", format: "pem" },
      privateKeyEncoding: { type: "pkcs8", format: "pem" },
    })
  : null;
const RWG_SERVICE_ACCOUNT_JSON = googleKeys
  ? JSON.stringify({
      type: "service_account",
      client_email: "rtu@salon-local.iam.gserviceaccount.com",
      private_key: googleKeys.privateKey,
      token_uri: `${RWG_NOTIFY_URL}/token`,
    })
  : process.env.RWG_SERVICE_ACCOUNT_JSON;
const GOOGLE_PUBLIC_KEY_FILE = resolve(".wrangler/google-local/service-account.pub.pem");

mkdirSync(dirname(LOG), { recursive: true });
// Truncated on every start: the file holds this run's output only.
const log = openSync(LOG, "w");
const quiet = ["ignore", log, log];

/** The log's last lines, for a failure's message. */
const logTail = (lines = 40) =>
  readFileSync(LOG, "utf8").trimEnd().split("\n").slice(-lines).join("\n");

function fail(message) {
  console.error(`npm start failed: ${message}\n\nLast lines of ${shownLog}:\n${logTail()}`);
  process.exit(1);
}

const run = (command, args, extraEnv = {}) => {
  const result = spawnSync(command, args, { stdio: quiet, env: { ...env, ...extraEnv } });
  if (result.status !== 0) fail(`${command} ${args.join(" ")} exited with ${result.status}`);
};

console.log(`Starting on ${BASE_URL} (logs: ${shownLog}) …`);
// The widget and the docs page's scripts are served from here, never from a CDN.
run("node", ["scripts/build-assets.mjs"]);
// Every D1 database: the directory (DB) and each shard, in one pass (scripts/migrate-local.mjs).
run("node", ["scripts/migrate-local.mjs", ...persist]);

// Its own process group too, stopped with wrangler's.
const stripeLocal = STRIPE_LOCAL
  ? spawn(
      "npx",
      [
        "tsx",
        "tools/stripe-local/main.ts",
        "--host",
        HOST,
        "--port",
        String(STRIPE_LOCAL_PORT),
        "--webhook-url",
        `${BASE_URL}/api/payments/stripe/webhook`,
        "--webhook-secret",
        STRIPE_WEBHOOK_SECRET,
      ],
      { stdio: quiet, env, detached: true },
    )
  : null;

if (googleKeys) {
  mkdirSync(dirname(GOOGLE_PUBLIC_KEY_FILE), { recursive: true });
  writeFileSync(GOOGLE_PUBLIC_KEY_FILE, googleKeys.publicKey);
}
const googleLocal = googleKeys
  ? spawn(
      "npx",
      [
        "tsx",
        "tools/google-local/main.ts",
        "--host",
        HOST,
        "--port",
        String(GOOGLE_LOCAL_PORT),
        "--public-key-file",
        GOOGLE_PUBLIC_KEY_FILE,
        "--partner-id",
        RWG_PARTNER_ID,
      ],
      { stdio: quiet, env, detached: true },
    )
  : null;

// Its own process group (detached), so that a stop reaches wrangler AND the workerd it runs:
// signalling `npx` alone leaves them holding the port.
const dev = spawn(
  "npx",
  [
    "wrangler",
    "dev",
    "--ip",
    HOST,
    "--port",
    String(PORT),
    ...persist,
    "--var",
    `ADMIN_TOKEN:${ADMIN_TOKEN}`,
    "--var",
    `MANAGE_TOKEN_SECRET:${MANAGE_TOKEN_SECRET}`,
    "--var",
    `CUSTOMER_ID_SECRET:${CUSTOMER_ID_SECRET}`,
    "--var",
    `ALLOW_PRIVATE_WEBHOOKS:${ALLOW_PRIVATE_WEBHOOKS}`,
    // Links in messages point where this server answers (never at a request's Host).
    "--var",
    `PUBLIC_ORIGIN:${process.env.PUBLIC_ORIGIN ?? BASE_URL}`,
    "--var",
    `STRIPE_API_BASE:${STRIPE_API_BASE}`,
    "--var",
    `STRIPE_SECRET_KEY:${STRIPE_SECRET_KEY}`,
    "--var",
    `STRIPE_WEBHOOK_SECRET:${STRIPE_WEBHOOK_SECRET}`,
    "--var",
    `RWG_NOTIFY_URL:${RWG_NOTIFY_URL}`,
    "--var",
    `RWG_PARTNER_ID:${RWG_PARTNER_ID}`,
    "--var",
    `RWG_SERVICE_ACCOUNT_JSON:${RWG_SERVICE_ACCOUNT_JSON}`,
  ],
  { stdio: quiet, env, detached: true },
);
closeSync(log);

/** The process groups this script started: wrangler's, and stripe-local's and google-local's when they run. */
const groups = [dev.pid, stripeLocal?.pid, googleLocal?.pid].filter((pid) => pid !== undefined);

/** Whether any process of those groups is still there. */
function groupAlive() {
  return groups.some((pid) => {
    try {
      process.kill(-pid, 0);
      return true;
    } catch {
      return false;
    }
  });
}

function signalGroup(signal) {
  for (const pid of groups) {
    try {
      process.kill(-pid, signal);
    } catch {
      // Already gone.
    }
  }
}

let stopping = false;
/** Stops the whole group: the signal first, SIGKILL for whatever is left after 5 s. */
async function stop(signal, code) {
  if (stopping) return;
  stopping = true;
  signalGroup(signal);
  const deadline = Date.now() + 5_000;
  while (groupAlive() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  if (groupAlive()) signalGroup("SIGKILL");
  process.exit(code);
}

for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"])
  process.on(signal, () => void stop(signal, signal === "SIGINT" ? 130 : 143));
// `kill <npm's pid>`: npm passes the signal to the `sh -c` it runs this under, which dies
// without passing it on. A parent gone is a stop too.
const parent = process.ppid;
setInterval(() => {
  try {
    process.kill(parent, 0);
  } catch {
    void stop("SIGTERM", 143);
  }
}, 250).unref();
dev.on("exit", (code) => {
  if (stopping) return;
  console.error(`wrangler dev stopped (exit ${code}); see ${shownLog}`);
  void stop("SIGTERM", code ?? 1);
});
for (const [name, child] of [
  ["stripe-local", stripeLocal],
  ["google-local", googleLocal],
]) {
  child?.on("exit", (code) => {
    if (stopping) return;
    console.error(`${name} stopped (exit ${code}); see ${shownLog}`);
    void stop("SIGTERM", code ?? 1);
  });
}

async function waitForServer(deadline = Date.now() + 90_000) {
  while (Date.now() < deadline) {
    try {
      // stripe-local answers any path (a 404 for this one) once it listens.
      if (STRIPE_LOCAL) await fetch(`${STRIPE_API_BASE}/`);
      if (GOOGLE_LOCAL) await fetch(`${RWG_NOTIFY_URL}/_requests`);
      const res = await fetch(`${BASE_URL}/`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`wrangler dev did not answer on ${BASE_URL} within 90 s`);
}

try {
  await waitForServer();
  const demo = await ensureDemoWorkspace(BASE_URL, ADMIN_TOKEN, PERSIST_TO ?? ".wrangler");
  const tokenSource = process.env.ADMIN_TOKEN
    ? "ADMIN_TOKEN from your environment"
    : "default dev-admin-token (set ADMIN_TOKEN to change it)";
  const widget = new URL("/widget", BASE_URL);
  widget.search = new URLSearchParams({
    workspace: demo.workspaceId,
    location: demo.ids.LOCATION,
    key: demo.publishableKey,
  }).toString();
  const payments = STRIPE_LOCAL
    ? `local Stripe-compatible test server at ${STRIPE_API_BASE}; test cards 4242 4242 4242 4242 (pays), 4000 0000 0000 0002 (declined)`
    : `Stripe at ${STRIPE_API_BASE} (STRIPE_SECRET_KEY from your environment)`;
  const google = GOOGLE_LOCAL
    ? `local stand-in for Google at ${RWG_NOTIFY_URL} (what arrived: ${RWG_NOTIFY_URL}/_requests)`
    : RWG_PARTNER_ID
      ? `partner ${RWG_PARTNER_ID} at ${RWG_NOTIFY_URL}`
      : "off (RWG_PARTNER_ID unset)";
  const exports = {
    BASE: `${BASE_URL}/api/public/v2`,
    ADMIN: `${BASE_URL}/api/admin/v1`,
    ADMIN_TOKEN,
    // The demo's publishable key is allowed from here.
    ORIGIN: BASE_URL,
    KEY: demo.apiKey,
    WS: demo.workspaceId,
    PK: demo.publishableKey,
    ...demo.ids,
  };
  console.log(`
────────────────────────────────────────────────────────────
 Scheduling API running
   Base URL          ${BASE_URL}/api/public/v2
   Workspace id      ${demo.workspaceId}
   API key           ${demo.apiKey}   (secret: servers only)
   Publishable key   ${demo.publishableKey}   (web pages, allowed from ${BASE_URL})
   Admin API         ${BASE_URL}/api/admin/v1  (token: ${tokenSource})
   Docs              ${BASE_URL}/docs
   OpenAPI           ${BASE_URL}/api/public/v2/openapi.json
   Booking widget    ${widget}
   Payments          ${payments}
   Google RTU        ${google}
   Logs              ${shownLog}  (wrangler, workerd, migrations: tail -f it)
   Stop              Ctrl-C, or kill ${process.pid}

 Paste these into a shell to run the README's curl examples as they are:
${Object.entries(exports)
  .map(([name, value]) => `export ${name}=${value}`)
  .join("\n")}
────────────────────────────────────────────────────────────
`);
} catch (error) {
  console.error(
    `npm start failed: ${error instanceof Error ? error.message : error}\n\nLast lines of ${shownLog}:\n${logTail()}`,
  );
  await stop("SIGTERM", 1);
}
