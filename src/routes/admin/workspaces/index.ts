import type { Router } from "../../../lib/openapi";
import * as create from "./create";
import * as get from "./get";

export function registerWorkspaces(router: Router) {
  router.openapi(create.route, create.handler);
  router.openapi(get.route, get.handler);
}
