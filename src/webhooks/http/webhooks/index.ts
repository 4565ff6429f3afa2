import type { Router } from "../../../http/openapi";
import * as create from "./create";
import * as remove from "./delete";
import * as deliveries from "./deliveries";
import * as get from "./get";
import * as list from "./list";
import * as rotate from "./rotate-secret";
import * as status from "./status";
import * as update from "./update";

export function registerWebhooks(router: Router) {
  router.openapi(create.route, create.handler);
  router.openapi(list.route, list.handler);
  router.openapi(get.route, get.handler);
  router.openapi(update.route, update.handler);
  router.openapi(status.enableRoute, status.enable);
  router.openapi(status.disableRoute, status.disable);
  router.openapi(remove.route, remove.handler);
  router.openapi(deliveries.route, deliveries.handler);
  router.openapi(rotate.route, rotate.handler);
}
