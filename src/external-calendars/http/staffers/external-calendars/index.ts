import type { Router } from "../../../../http/openapi";
import * as create from "./create";
import * as remove from "./delete";
import * as list from "./list";
import * as sync from "./sync";

export function registerExternalCalendars(router: Router) {
  router.openapi(create.route, create.handler);
  router.openapi(list.route, list.handler);
  router.openapi(sync.route, sync.handler);
  router.openapi(remove.route, remove.handler);
}
