import type { AdminEnv } from "../../../../http/env";
import type { Router } from "../../../../http/openapi";
import * as block from "../../../../calendar/http/admin/resources/block";
import * as calendar from "../../../../calendar/http/admin/resources/calendar";
import * as create from "./create";
import * as list from "./list";

export function registerResources(router: Router<AdminEnv>) {
  router.openapi(create.route, create.handler);
  router.openapi(list.route, list.handler);
  router.openapi(block.route, block.handler);
  router.openapi(calendar.auditRoute, calendar.auditHandler);
  router.openapi(calendar.rebuildRoute, calendar.rebuildHandler);
}
