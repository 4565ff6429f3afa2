import type { Router } from "../../../lib/openapi";
import * as create from "./create";

export function registerCategories(router: Router) {
  router.openapi(create.route, create.handler);
}
