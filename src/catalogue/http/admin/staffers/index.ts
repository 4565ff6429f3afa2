import type { AdminEnv } from "../../../../http/env";
import type { Router } from "../../../../http/openapi";
import * as create from "./create";
import * as schedule from "./schedule";

export function registerStaffers(router: Router<AdminEnv>) {
  router.openapi(create.route, create.handler);
  router.openapi(schedule.route, schedule.handler);
}
