import type { Router } from "../../../http/openapi";
import * as get from "./get";
import * as list from "./list";
import * as patch from "./patch";

export function registerCustomers(router: Router) {
  router.openapi(list.route, list.handler);
  router.openapi(get.route, get.handler);
  router.openapi(patch.route, patch.handler);
}
