import type { AdminEnv } from "../../../http/env";
import type { Router } from "../../../http/openapi";
import * as partner from "./partner";

/** The management API's Reserve with Google routes: the partner credentials, the feeds. */
export function registerRwgAdmin(router: Router<AdminEnv>) {
  router.openapi(partner.route, partner.handler);
}
