import type { AdminEnv } from "../../../env";
import type { Router } from "../../../lib/openapi";
import * as get from "./get";
import * as put from "./put";

export function registerNotificationSettings(router: Router<AdminEnv>) {
  router.openapi(get.route, get.handler);
  router.openapi(put.route, put.handler);
}
