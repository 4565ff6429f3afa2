import type { Router } from "../../../http/openapi";
import * as list from "./list";

export function registerStaffers(router: Router) {
  router.openapi(list.route, list.handler);
}
