import type { Router } from "../../../http/openapi";
import * as get from "./get";

export function registerVouchers(router: Router) {
  router.openapi(get.route, get.handler);
}
