import type { Router } from "../../http/openapi";
import * as noShows from "./no-shows";
import * as revenue from "./revenue";
import * as utilization from "./utilization";

/** The owner's reports: revenue, utilization and no-shows of a location's days. */
export function registerReports(router: Router) {
  router.openapi(revenue.route, revenue.handler);
  router.openapi(utilization.route, utilization.handler);
  router.openapi(noShows.route, noShows.handler);
}
