import type { Router } from "../../../http/openapi";
import * as get from "./get";
import * as list from "./list";

export function registerMessages(router: Router) {
  router.openapi(list.route, list.handler);
  router.openapi(get.route, get.handler);
}
