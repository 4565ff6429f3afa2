import type { Router } from "../../../http/openapi";
import * as createLink from "./create-link";

/** The dashboard's link (secret keys); the page itself is served at the root (`dashboardPage`). */
export function registerDashboardLink(router: Router) {
  router.openapi(createLink.route, createLink.handler);
}
