import type { Router } from "../../../http/openapi";
import * as get from "./get";

export function registerWorkspace(router: Router) {
  router.openapi(get.route, get.handler);
}
