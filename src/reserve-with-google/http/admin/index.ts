import type { AdminEnv } from "../../../http/env";
import type { Router } from "../../../http/openapi";
import * as partner from "./partner";
import * as merchants from "./feed-merchants";
import * as services from "./feed-services";
import * as availability from "./feed-availability";

/** The management API's Reserve with Google routes: the partner credentials, the feeds. */
export function registerRwgAdmin(router: Router<AdminEnv>) {
  router.openapi(partner.route, partner.handler);
  router.openapi(merchants.route, merchants.handler);
  router.openapi(services.route, services.handler);
  router.openapi(availability.route, availability.handler);
}
