import type { Router } from "../../../http/openapi";
import * as cancel from "./cancel";
import * as get from "./get";
import * as reschedule from "./reschedule";

export function registerSeries(router: Router) {
  router.openapi(get.route, get.handler);
  router.openapi(cancel.route, cancel.handler);
  router.openapi(reschedule.route, reschedule.handler);
}
