// `npm start`: migrate local D1, start `wrangler dev`, seed a demo workspace
// through the management API (idempotently) and print how to call it.
import { spawn, spawnSync } from "node:child_process";
import { ensureDemoWorkspace } from "./seed.mjs";

const HOST = "127.0.0.1";
const PORT = Number(process.env.PORT ?? 8787);
const BASE_URL = `http://${HOST}:${PORT}`;
const ADMIN_TOKEN = process.env.ADMIN_TOKEN ?? "dev-admin-token";
const ALLOW_PRIVATE_WEBHOOKS = process.env.ALLOW_PRIVATE_WEBHOOKS ?? "true";
const env = { ...process.env, WRANGLER_SEND_METRICS: "false" };

const migrate = spawnSync("npx", ["wrangler", "d1", "migrations", "apply", "DB", "--local"], {
  stdio: "inherit",
  env: { ...env, CI: "true" },
});
if (migrate.status !== 0) process.exit(migrate.status ?? 1);

const dev = spawn(
  "npx",
  [
    "wrangler",
    "dev",
    "--ip",
    HOST,
    "--port",
    String(PORT),
    "--var",
    `ADMIN_TOKEN:${ADMIN_TOKEN}`,
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
  const demo = await ensureDemoWorkspace(BASE_URL, ADMIN_TOKEN);
  const tokenSource = process.env.ADMIN_TOKEN
    ? "ADMIN_TOKEN from your environment"
    : "default dev-admin-token (set ADMIN_TOKEN to change it)";
  console.log(`
────────────────────────────────────────────────────────────
 Scheduling API running
   Base URL      ${BASE_URL}/api/public/v2
   Workspace id  ${demo.workspaceId}
   API key       ${demo.apiKey}
   Admin API     ${BASE_URL}/api/admin/v1  (token: ${tokenSource})
   Docs          ${BASE_URL}/docs
   OpenAPI       ${BASE_URL}/api/public/v2/openapi.json
   Try: curl -H "Authorization: Bearer ${demo.apiKey}" -H "Workspace: ${demo.workspaceId}" ${BASE_URL}/api/public/v2/services
────────────────────────────────────────────────────────────
`);
} catch (error) {
  console.error(`Start-up failed: ${error instanceof Error ? error.message : error}`);
  dev.kill("SIGTERM");
  process.exit(1);
}
