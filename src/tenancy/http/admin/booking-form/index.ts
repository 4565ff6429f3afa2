import type { AdminEnv } from "../../../../http/env";
import type { Router } from "../../../../http/openapi";
import * as put from "./put";

export function registerBookingForm(router: Router<AdminEnv>) {
  router.openapi(put.route, put.handler);
}
