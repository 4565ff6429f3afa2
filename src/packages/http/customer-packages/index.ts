import type { Router } from "../../../http/openapi";
import * as cancel from "./cancel";
import * as get from "./get";
import * as list from "./list";

export function registerCustomerPackages(router: Router) {
  router.openapi(list.route, list.handler);
  router.openapi(get.route, get.handler);
  router.openapi(cancel.route, cancel.handler);
}
