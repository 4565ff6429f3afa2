import type { Router } from "../../../lib/openapi";
import * as get from "./get";

export function registerSeries(router: Router) {
  router.openapi(get.route, get.handler);
}
