import type { Router } from "../../../http/openapi";
import * as create from "./create";
import * as get from "./get";
import * as list from "./list";
import * as update from "./update";

export function registerPackageTemplates(router: Router) {
  router.openapi(create.route, create.handler);
  router.openapi(list.route, list.handler);
  router.openapi(get.route, get.handler);
  router.openapi(update.route, update.handler);
}
