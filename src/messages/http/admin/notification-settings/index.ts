import type { AdminEnv } from "../../../../http/env";
import type { Router } from "../../../../http/openapi";
import * as get from "./get";
import * as put from "./put";

export function registerNotificationSettings(router: Router<AdminEnv>) {
  router.openapi(get.route, get.handler);
  router.openapi(put.route, put.handler);
}
