// `npm start`: build the static assets, migrate local D1, start `wrangler dev`,
// seed a demo workspace through the management API (idempotently) and print
// how to call it, as `export` lines a shell can paste.
import { spawn, spawnSync } from "node:child_process";
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
const env = { ...process.env, WRANGLER_SEND_METRICS: "false" };

const run = (command, args, extraEnv = {}) => {
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...env, ...extraEnv } });
  if (result.status !== 0) process.exit(result.status ?? 1);
};

// The widget and the docs page's scripts are served from here, never from a CDN.
run("node", ["scripts/build-assets.mjs"]);
run("npx", ["wrangler", "d1", "migrations", "apply", "DB", "--local", ...persist], { CI: "true" });

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
  ],
  { stdio: ["ignore", "inherit", "inherit"], env },
);
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => dev.kill(signal));
dev.on("exit", (code) => process.exit(code ?? 0));

async function waitForServer(deadline = Date.now() + 90_000) {
  while (Date.now() < deadline) {
    try {
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

 Paste these into a shell to run the README's curl examples as they are:
${Object.entries(exports)
  .map(([name, value]) => `export ${name}=${value}`)
  .join("\n")}
────────────────────────────────────────────────────────────
`);
} catch (error) {
  console.error(`Start-up failed: ${error instanceof Error ? error.message : error}`);
  dev.kill("SIGTERM");
  process.exit(1);
}
