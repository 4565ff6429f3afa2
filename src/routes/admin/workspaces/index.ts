import type { Router } from "../../../lib/openapi";
import * as create from "./create";

export function registerWorkspaces(router: Router) {
  router.openapi(create.route, create.handler);
}
