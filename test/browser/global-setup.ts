import type { TestProject } from "vitest/node";
import { createSalon, type Salon } from "./salon";
import { startServer } from "./server";

declare module "vitest" {
  export interface ProvidedContext {
    salon: Salon;
    /** The server's local state folder, for reading what the API does not show. */
    persist: string;
    /** stripe-local's base URL: the hosted payment pages the widget sends customers to. */
    stripe: string;
  }
}

export default async function setup(project: TestProject) {
  const server = await startServer();
  try {
    project.provide("salon", await createSalon(server.base));
    project.provide("persist", server.persist);
    project.provide("stripe", server.stripe);
  } catch (e) {
    server.stop();
    throw e;
  }
  return () => server.stop();
}
