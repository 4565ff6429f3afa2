import type { AdminEnv } from "../../../../http/env";
import type { Router } from "../../../../http/openapi";
import * as block from "./block";
import * as calendar from "./calendar";

/** A resource's blocks and calendar objects, under catalogue's resource (app/ puts them there). */
export function registerResourceCalendar(router: Router<AdminEnv>) {
  router.openapi(block.route, block.handler);
  router.openapi(calendar.auditRoute, calendar.auditHandler);
  router.openapi(calendar.rebuildRoute, calendar.rebuildHandler);
}
