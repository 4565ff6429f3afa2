import type { AdminEnv } from "../../../../http/env";
import type { Router } from "../../../../http/openapi";
import * as calendar from "../../../../calendar/http/admin/staffers/calendar";
import * as create from "./create";
import * as schedule from "./schedule";

export function registerStaffers(router: Router<AdminEnv>) {
  router.openapi(create.route, create.handler);
  router.openapi(schedule.route, schedule.handler);
  router.openapi(calendar.auditRoute, calendar.auditHandler);
  router.openapi(calendar.rebuildRoute, calendar.rebuildHandler);
}
