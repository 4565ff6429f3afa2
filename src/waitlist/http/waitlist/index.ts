import type { Router } from "../../../http/openapi";
import * as create from "./create";
import * as get from "./get";
import * as list from "./list";
import * as remove from "./delete";

export function registerWaitlist(router: Router) {
  router.openapi(list.route, list.handler);
  router.openapi(create.route, create.handler);
  router.openapi(get.route, get.handler);
  router.openapi(remove.route, remove.handler);
}
