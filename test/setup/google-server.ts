import type { TestProject } from "vitest/node";
import { createGoogleLocal } from "../../tools/google-local/server";
import { googleTestKeys, TEST_RWG_PARTNER_ID, TEST_SALON_PARTNER_ID } from "./google-keys";

declare module "vitest" {
  export interface ProvidedContext {
    /** Base URL of google-local, the stand-in for Google's Maps Booking API (tools/google-local). */
    googleServer: string;
  }
}

/**
 * One google-local for every test file, on the port vitest.config.ts chose before the Worker's
 * bindings were fixed (RWG_NOTIFY_URL and the service account's token_uri point there). Files
 * share it: a test reads the calls about its own bookings and locations (GET /_requests with
 * path_contains) and arms faults for those paths only.
 */
export default async function setup(project: TestProject) {
  const server = await createGoogleLocal({
    port: Number(process.env.GOOGLE_LOCAL_PORT ?? 0),
    publicKeyPem: googleTestKeys().publicKeyPem,
    partnerIds: [TEST_RWG_PARTNER_ID, TEST_SALON_PARTNER_ID],
  });
  project.provide("googleServer", server.url);
  return () => server.close();
}
