import type { TestProject } from "vitest/node";
import { createStripeLocal } from "../../tools/stripe-local/server";

declare module "vitest" {
  export interface ProvidedContext {
    /** Base URL of stripe-local, the Stripe-compatible test server (tools/stripe-local). */
    stripeServer: string;
  }
}

/** The webhook secret the Worker under test is given (vitest.config.ts binds the same). */
export const STRIPE_TEST_WEBHOOK_SECRET = "whsec_test_local";

/**
 * One stripe-local for every test file, on the port vitest.config.ts chose before the Worker's
 * bindings were fixed (STRIPE_API_BASE points there). Events wait for the tests to take them:
 * the Worker under test has no address to POST them to.
 */
export default async function setup(project: TestProject) {
  const port = Number(process.env.STRIPE_LOCAL_PORT ?? 0);
  const server = await createStripeLocal({ port, webhookSecret: STRIPE_TEST_WEBHOOK_SECRET });
  project.provide("stripeServer", server.url);
  return () => server.close();
}
