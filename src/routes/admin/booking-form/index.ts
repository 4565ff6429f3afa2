import type { AdminEnv } from "../../../env";
import type { Router } from "../../../lib/openapi";
import * as put from "./put";

export function registerBookingForm(router: Router<AdminEnv>) {
  router.openapi(put.route, put.handler);
}
