// CLI: npx tsx tools/google-local/main.ts --port 12112 --public-key-file key.pub.pem [--partner-id 20001 ...]
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { createGoogleLocal } from "./server";

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "12112" },
    host: { type: "string", default: "127.0.0.1" },
    "public-key-file": { type: "string" },
    // Repeatable: each partner account the caller may update (one per salon, or the platform's).
    "partner-id": { type: "string", multiple: true },
  },
});
if (!values["public-key-file"]) throw new Error("--public-key-file is required (SPKI PEM)");

const server = await createGoogleLocal({
  port: Number(values.port),
  host: values.host,
  publicKeyPem: readFileSync(values["public-key-file"], "utf8"),
  ...(values["partner-id"] ? { partnerIds: values["partner-id"] } : {}),
  // Each call as answered, so a refused update shows in the log.
  onCall: (call) => console.log(`${call.method} ${call.path} → ${call.status}`),
});
console.log(`google-local listening on ${server.url}`);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    void server.close().then(() => process.exit(0));
  });
}
