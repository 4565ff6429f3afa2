// CLI: npx tsx tools/stripe-local/main.ts --port 12111 --webhook-secret whsec_… [--webhook-url …]
import { parseArgs } from "node:util";
import { createStripeLocal } from "./server";

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "12111" },
    host: { type: "string", default: "127.0.0.1" },
    "webhook-url": { type: "string" },
    "webhook-secret": { type: "string", default: "whsec_test_local" },
  },
});

const server = await createStripeLocal({
  port: Number(values.port),
  host: values.host,
  webhookSecret: values["webhook-secret"],
  webhookUrl: values["webhook-url"],
  // Each attempt, so that a webhook the Worker refuses shows in the log.
  onDeliveryAttempt: (a) =>
    console.log(
      `event ${a.type} ${a.event}: attempt ${a.attempt} answered ${a.status || "nothing"}`,
    ),
});
console.log(`stripe-local listening on ${server.url}`);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    void server.close().then(() => process.exit(0));
  });
}
