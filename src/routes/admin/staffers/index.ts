import type { AdminEnv } from "../../../env";
import type { Router } from "../../../lib/openapi";
import * as calendar from "./calendar";
import * as create from "./create";
import * as schedule from "./schedule";

export function registerStaffers(router: Router<AdminEnv>) {
  router.openapi(create.route, create.handler);
  router.openapi(schedule.route, schedule.handler);
  router.openapi(calendar.auditRoute, calendar.auditHandler);
  router.openapi(calendar.rebuildRoute, calendar.rebuildHandler);
}
